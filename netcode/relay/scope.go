package relay

import (
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"slices"

	"github.com/pion/stun/v4"
)

// ownAddresses are the relay's own: PublicIP, a specific RelayBind, every
// address of the machine's interfaces and, for each IPv4 interface subnet,
// its directed broadcast address. A client may not relay to them, but to
// another allocation's port of the same game (see peerRefusal).
func ownAddresses(cfg Config) (map[netip.Addr]bool, error) {
	own := map[netip.Addr]bool{cfg.PublicIP.Unmap(): true}
	if !cfg.RelayBind.IsUnspecified() {
		own[cfg.RelayBind.Unmap()] = true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil, fmt.Errorf("relay: the machine's addresses: %w", err)
	}
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip, ok := netip.AddrFromSlice(n.IP)
		if !ok {
			continue
		}
		ip = ip.Unmap()
		own[ip] = true
		if ones, bits := n.Mask.Size(); ip.Is4() && bits != 0 {
			ones -= bits - 32 // a 16-byte mask of an IPv4 address
			if ones >= 0 && ones < 31 {
				b := ip.As4()
				binary.BigEndian.PutUint32(b[:], binary.BigEndian.Uint32(b[:])|^uint32(0)>>ones)
				own[netip.AddrFrom4(b)] = true
			}
		}
	}
	return own, nil
}

// allowedPeer reports whether Config.AllowPeers lists ip.
func (s *Server) allowedPeer(ip netip.Addr) bool {
	for _, p := range s.cfg.AllowPeers {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// sharesScope reports whether two scopes name a common address: their
// credentials were minted for the same game.
func sharesScope(a, b []netip.Addr) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// sameGameAllocation reports whether a live allocation other than c, with
// a scope sharing an address with c's, is at port (negative: at any
// port).
func (s *Server) sameGameAllocation(c *relayConn, port int) bool {
	if len(c.scope) == 0 {
		return false
	}
	s.connsMu.Lock()
	defer s.connsMu.Unlock()
	if port >= 0 {
		o := s.byPort[port]
		return o != nil && o != c && sharesScope(c.scope, o.scope)
	}
	for o := range s.conns {
		if o != c && sharesScope(c.scope, o.scope) {
			return true
		}
	}
	return false
}

// peerRefusal is why allocation c may not relay to ip at port (negative:
// a permission, for any port), or reasonNone when it may. A peer DeniedPeer refuses
// needs AllowPeers; the relay's own addresses are refused but to another
// live allocation of the same game (a scope sharing an address with c's),
// which relays between two players who both need the relay; a scoped
// credential reaches only its scope, an unscoped one only AllowPeers.
func (s *Server) peerRefusal(c *relayConn, ip netip.Addr, port int) reason {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.Zone() != "" {
		return reasonPeerDenied
	}
	allowed := s.allowedPeer(ip)
	if DeniedPeer(ip) && !allowed {
		return reasonPeerDenied
	}
	if s.own[ip] {
		relayIP := ip == s.cfg.PublicIP.Unmap() || ip == s.cfg.RelayBind.Unmap() || s.cfg.RelayBind.IsUnspecified()
		if relayIP && s.sameGameAllocation(c, port) {
			return reasonNone
		}
		return reasonOwnAddress
	}
	if c.scope == nil {
		if allowed {
			return reasonNone
		}
		return reasonScope
	}
	if !slices.Contains(c.scope, ip) {
		return reasonScope
	}
	return reasonNone
}

// requestReader is what the relay read of the requests on one of its listeners.
type requestReader interface {
	current(client net.Addr) (req request, key string, ok bool)
}

// permitter returns the PermissionHandler of the listener in reads: it
// lets an allocation make a permission or channel for a peer its
// credential may reach (peerRefusal), within MaxPermissionsPerAllocation
// peer IPs and MaxChannelsPerAllocation channels.
func (s *Server) permitter(in requestReader) func(client net.Addr, peer net.IP) bool {
	return func(client net.Addr, peer net.IP) bool {
		ip, _ := netip.AddrFromSlice(peer)
		ip = ip.Unmap()
		req, key, ok := in.current(client)
		var c *relayConn
		if ok {
			s.connsMu.Lock()
			c = s.byKey[key]
			s.connsMu.Unlock()
		}
		if c == nil {
			// No allocation of this client's is known: refuse.
			s.refuse(reasonPeerDenied)
			s.log.Debug("relay refused peer of an unknown allocation", "client", client, "peer", ip)
			return false
		}
		r := s.peerRefusal(c, ip, -1)
		if r == reasonNone && req.method == stun.MethodChannelBind && req.peer.Addr() != ip {
			r = reasonPeerDenied // not the request that was read: refuse
		}
		if r == reasonNone && req.method == stun.MethodChannelBind && !c.channelRoom(req.channel, s.cfg.MaxChannelsPerAllocation) {
			r = reasonChannelsCap
		}
		if r == reasonNone && !c.permissionRoom(ip, s.cfg.MaxPermissionsPerAllocation) {
			r = reasonPermissionsCap
		}
		if r != reasonNone {
			s.refuse(r)
			s.log.Debug("relay refused peer", "client", client, "username", c.user.name, "peer", ip, "method", req.method, "reason", r)
			return false
		}
		return true
	}
}
