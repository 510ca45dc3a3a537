package relay

import "net/netip"

// deniedPrefixes are the peer ranges a client may not relay to by default:
// the relay's own host and the networks behind it.
var deniedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),      // "this network", incl. 0.0.0.0
	netip.MustParsePrefix("10.0.0.0/8"),     // private
	netip.MustParsePrefix("100.64.0.0/10"),  // shared address space (CGNAT)
	netip.MustParsePrefix("127.0.0.0/8"),    // loopback
	netip.MustParsePrefix("169.254.0.0/16"), // link-local, incl. cloud metadata 169.254.169.254
	netip.MustParsePrefix("172.16.0.0/12"),  // private
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments
	netip.MustParsePrefix("192.168.0.0/16"), // private
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking
	netip.MustParsePrefix("224.0.0.0/4"),    // multicast
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved, incl. broadcast 255.255.255.255
	netip.MustParsePrefix("::/128"),         // unspecified
	netip.MustParsePrefix("::1/128"),        // loopback
	netip.MustParsePrefix("::/96"),          // IPv4-compatible (deprecated)
	netip.MustParsePrefix("100::/64"),       // discard-only
	netip.MustParsePrefix("fc00::/7"),       // unique local, incl. fd00:ec2::254 (cloud metadata)
	netip.MustParsePrefix("fe80::/10"),      // link-local
	netip.MustParsePrefix("fec0::/10"),      // site-local (deprecated)
	netip.MustParsePrefix("ff00::/8"),       // multicast
}

// nat64Prefix is the well-known NAT64 prefix (RFC 6052); an address in it
// carries an IPv4 address in its last 4 bytes, which is what a NAT64 on the
// relay's network would reach.
var nat64Prefix = netip.MustParsePrefix("64:ff9b::/96")

// DeniedPeer reports whether a client is refused, by default, a permission
// to relay to ip: the unspecified addresses, loopback (127/8, ::1),
// link-local (169.254/16 with the metadata address 169.254.169.254,
// fe80::/10), private (10/8, 172.16/12, 192.168/16, fc00::/7 with
// fd00:ec2::254), shared (CGNAT, 100.64/10), 0/8, 192.0.0.0/24,
// benchmarking (198.18/15), multicast, reserved (240/4) and broadcast, and
// IPv4-mapped and NAT64 forms of the IPv4 ones. An invalid address is
// denied.
func DeniedPeer(ip netip.Addr) bool {
	if !ip.IsValid() {
		return true
	}
	ip = ip.WithZone("").Unmap()
	if nat64Prefix.Contains(ip) {
		b := ip.As16()
		ip = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	for _, p := range deniedPrefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
