// Package rendezvous lets a player host a match from behind a NAT that
// forwards nothing: the host keeps one outbound WebSocket to a rendezvous
// on a public machine and gets an invite link with an unguessable code,
// and the link serves as the host's address.
//
// A game server's signalling is a few HTTP requests (the offer, the ICE
// servers, the match list). A client sends them to the invite link,
// LINK/signal and so on, as it would to the host's own address; the
// rendezvous ([Server]) forwards each over the host's WebSocket as a
// request message, the host ([Host]) serves it with its ordinary HTTP
// handler and sends back a response message, which the rendezvous
// returns to the client as data: JSON or plain text (any other type
// becomes plain text), never sniffed, sandboxed. Only the requests of
// [Route]s are forwarded, and only a few headers each way. The data then flows between
// the peers, directly when their NATs let ICE's checks through and through
// a TURN relay when not; the rendezvous carries no game traffic.
//
// A code is 16 random bytes (26 base32 characters) and dies with the
// host's connection: a host that reconnects gets a new link. The
// rendezvous rate-limits hosts and clients by address (an IPv6 address by
// its /64), caps the hosts per address and per network block (an IPv4
// /24, an IPv6 /56), the requests waiting on each host
// and every message's size, and refuses a message that breaks them
// ([ParseMessage], fuzzed).
//
// The wire (JSON text messages on the WebSocket at GET /host):
//
//	rendezvous -> host  {"type":"welcome","code":"...","url":"http://R/i/CODE","iceServers":[...],"ttl":600}
//	rendezvous -> host  {"type":"request","id":7,"method":"POST","path":"/signal","query":"match=1",
//	                     "remote":"198.51.100.7:51000","header":{"Authorization":["Bearer ..."]},"body":"<base64>"}
//	host -> rendezvous  {"type":"response","id":7,"status":200,"header":{"Content-Type":["application/json"]},"body":"<base64>"}
//	rendezvous -> host  {"type":"ice","iceServers":[...],"ttl":600}   (fresh relay credentials, when it hands them out)
//	host -> rendezvous  {"type":"relay","addrs":["203.0.113.70"]}    (serve my players' LINK/ice with your relay)
//
// A rendezvous that hands out relay credentials ([ServerConfig].ICEServers)
// gives the host one of its own in the welcome, scoped to the host's
// address. A host without a relay of its own sends a relay message, and
// the rendezvous then answers its players' GET LINK/ice itself: one
// credential per player's connection, scoped to the host's address (its
// connection's, and those the relay message names within the same /24 or
// /56), so that every player of a full match has its own and none reaches
// anyone but the host. Relay usernames carry nothing of the invite code.
package rendezvous
