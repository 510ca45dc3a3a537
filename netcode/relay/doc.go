// Package relay is Sightline's TURN relay (RFC 8656): players whose
// networks block a direct path to a game server reach it through a relayed
// UDP address on the relay.
//
// The relay admits only clients holding a credential a game server minted
// for them with the secret they share (package iceservers, the TURN REST
// scheme coturn calls use-auth-secret): it keeps no user list, and refuses
// a username whose expiry has passed or lies more than MaxTTL ahead. An
// allocation may be refreshed, and permissions made on it, after its
// credential expires, so a match outlives the credential it was joined
// with; a new allocation needs a live credential.
//
// It is not an open proxy into the network it runs in: a client may relay
// only to peers DeniedPeer does not refuse (loopback, private, link-local
// including the cloud metadata address, shared, multicast and the other
// special ranges), unless Config.AllowPeers lists them. It relays UDP only;
// TCP allocations (RFC 6062) are refused. Each username may hold at most
// MaxAllocationsPerUser allocations at once and relay MaxBytesPerUser
// bytes in all; past that its allocations drop what they would relay.
//
// Clients reach the relay over UDP and TCP on one address and, optionally,
// over TLS on another. Its listeners hold up under abuse: TCP and TLS
// connections are capped per client (an IPv4 address, an IPv6 /64) and in
// all, closed when idle (IdleTimeout, FirstMessageTimeout) or announcing a
// message larger than MaxFrame, and the accept loop rides out running out
// of file descriptors. The UDP socket is drained by a goroutine of its own,
// and datagrams from sources the relay has not admitted pass a rate bound
// (UnknownRate, UnknownRatePerAddr), so that a flood neither crowds out
// the players' datagrams nor turns the relay into a reflector (see
// intake.go). Stats and Collector report what it did, and what it refused.
package relay
