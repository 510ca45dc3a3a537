// Package relay is Sightline's TURN relay (RFC 8656): players whose
// networks block a direct path to a game server reach it through a relayed
// UDP address on the relay.
//
// The relay admits only clients holding a credential a game server minted
// for them with the secret they share (package iceservers, the TURN REST
// scheme coturn calls use-auth-secret): it keeps no user list, and refuses
// a username whose expiry has passed or lies more than MaxTTL ahead. Every
// request needs a live credential, and an allocation ends when the
// credential it was made with expires: a credential must outlive the match
// it is minted for, or the client must allocate again with a fresh one
// before it expires.
//
// It is not an open proxy into the network it runs in. A credential may
// carry a scope (iceservers.Scope: the addresses of the game it was minted
// for); its allocations relay only to those peers. An unscoped credential
// relays only to the peers Config.AllowPeers lists. Either way a client
// may not relay to peers DeniedPeer refuses (loopback, private,
// link-local including the cloud metadata address, shared, multicast and
// the other special ranges) unless AllowPeers lists them, nor to the
// relay's own addresses (PublicIP, RelayBind, its interfaces' addresses
// and their subnets' broadcast addresses) but to the relayed port of
// another allocation of the same game (a scope sharing an address), which
// relays between two players who both need the relay. The peer is checked
// when a permission or channel is made and again for every datagram the
// relay sends.
//
// It relays UDP only; TCP allocations (RFC 6062) are refused. Its caps,
// each a Config field with a default: allocations per username
// (MaxAllocationsPerUser), per client address or IPv6 /64
// (MaxAllocationsPerAddress) and in all (MaxAllocations); peer IPs with
// permissions and channels per allocation (MaxPermissionsPerAllocation,
// MaxChannelsPerAllocation); bytes a second per allocation in each
// direction (RateBytesPerSecond, with a burst of RateBurstBytes: beyond it
// datagrams are dropped); and bytes per username in all (MaxBytesPerUser:
// past it its allocations drop what they would relay).
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
// intake.go). Stats and Collector report what it did, refusals by reason.
// The TURN library's warnings, which any client can cause, are
// rate-limited in the log.
package relay
