// Package jointoken admits only invited players to a match server: a host's
// backend mints a short-lived join token that only its game servers can
// open, and a server refuses an offer whose token is missing, does not
// open, has expired, is for another server or match, or was used before.
//
// A token is sealed with XChaCha20-Poly1305 under a 32-byte key the backend
// and its servers share (LoadKey reads it from a file of 64 hex digits, a
// Kubernetes Secret in a fleet). Nobody without the key can read, forge or
// alter one. It names the match it is good for (or any), the player's name
// and id, its expiry, the server address it is good for (or any), and a
// random id that a server accepts once.
//
// # Wire format
//
// A token is the unpadded base64url text (RFC 4648 §5) of:
//
//	version   1 byte, 1
//	nonce     24 bytes, random
//	sealed    the claims, sealed with the key and the nonce; the version
//	          byte is the additional data; 16 bytes of tag at the end
//
// The claims are, in order (varints are unsigned LEB128, shortest form):
//
//	expires   8 bytes, big-endian: Unix seconds after which it is refused
//	id        16 bytes, random: the token's own id
//	player    varint: the player's id, as the backend knows it
//	match     varint length (<= MaxMatch), then the match's id; empty: any
//	name      varint length (<= MaxName), then the player's name, UTF-8
//	server    varint length (<= MaxServer), then host:port; empty: any
//
// Nothing may follow. A token text longer than MaxText is refused before
// it is decoded.
//
// # Checking
//
// A [Checker] opens tokens for one server. It remembers the ids of the
// tokens it accepted until they expire, so a token joins once; it refuses
// a token that expires further ahead than its MaxTTL, so what it remembers
// is bounded in time as well as in count (MaxUsed). Its methods are safe
// for concurrent use.
package jointoken
