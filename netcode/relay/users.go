package relay

import (
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sightline-game/sightline/netcode/iceservers"
)

// user is what the relay tracks of one TURN username: its live
// allocations and the bytes they relayed. An entry lives while it has
// allocations or its username has not expired (after that the username
// cannot allocate again, so its byte count is no longer needed).
type user struct {
	name        string
	expires     int64 // Unix seconds, from the username
	allocations int   // guarded by users.mu
	bytes       atomic.Int64
}

// users is the relay's table of usernames.
type users struct {
	mu sync.Mutex
	m  map[string]*user
}

// allocations reports how many allocations username holds and how many
// bytes it relayed.
func (u *users) usage(username string) (allocations int, bytes int64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	e := u.m[username]
	if e == nil {
		return 0, 0
	}
	return e.allocations, e.bytes.Load()
}

// acquire counts one more allocation for username, unless it holds max
// already.
func (u *users) acquire(username string, max int) (*user, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	e := u.m[username]
	if e == nil {
		exp, _ := iceservers.ParseUsername(username)
		e = &user{name: username, expires: exp}
		u.m[username] = e
	}
	if e.allocations >= max {
		return nil, false
	}
	e.allocations++
	return e, true
}

// release counts one allocation of e less.
func (u *users) release(e *user) {
	u.mu.Lock()
	defer u.mu.Unlock()
	e.allocations--
}

// sweep forgets the usernames without allocations that expired by now.
func (u *users) sweep(now time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for name, e := range u.m {
		if e.allocations == 0 && e.expires <= now.Unix() {
			delete(u.m, name)
		}
	}
}

// len is the number of usernames tracked.
func (u *users) len() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.m)
}

// relayConn is an allocation's relay socket: it relays only to the peers
// its credential may reach, within its rate, and counts what it relays
// against its username's byte quota, dropping what exceeds them.
type relayConn struct {
	net.PacketConn
	srv       *Server
	user      *user
	scope     []netip.Addr // the credential's scope; nil: unscoped
	in, out   *rateBucket  // RateBytesPerSecond from peers, and to them
	closeOnce sync.Once

	// key and client are the client's connection (connKey) and network
	// (clientPrefix), once the allocation is made; guarded by
	// srv.connsMu.
	key    string
	client netip.Prefix

	// permitted counts the permissions (and channels) the client holds
	// for each peer IP: only their datagrams are relayed, and counted.
	// channels are the client's channel numbers, with their peers.
	mu        sync.Mutex
	permitted map[netip.Addr]int
	channels  map[uint16]net.Addr
}

// permit adds (delta 1) or removes (-1) a permission for peer.
func (c *relayConn) permit(peer netip.Addr, delta int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.permitted == nil {
		c.permitted = make(map[netip.Addr]int)
	}
	if c.permitted[peer] += delta; c.permitted[peer] <= 0 {
		delete(c.permitted, peer)
	}
}

// permissionRoom reports whether the client may hold a permission for
// peer: it holds one already, or fewer than max.
func (c *relayConn) permissionRoom(peer netip.Addr, max int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.permitted[peer] > 0 || len(c.permitted) < max
}

// bindChannel records (add) or forgets a channel number.
func (c *relayConn) bindChannel(number uint16, peer net.Addr, add bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.channels == nil {
		c.channels = make(map[uint16]net.Addr)
	}
	if add {
		c.channels[number] = peer
	} else {
		delete(c.channels, number)
	}
}

// channelRoom reports whether the client may bind channel number: it is
// bound already (a refresh), or fewer than max are.
func (c *relayConn) channelRoom(number uint16, max int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, bound := c.channels[number]
	return bound || len(c.channels) < max
}

// allowed reports whether the client holds a permission for addr's IP.
func (c *relayConn) allowed(addr net.Addr) bool {
	ua, ok := addr.(*net.UDPAddr)
	if !ok {
		return false
	}
	ip, ok := netip.AddrFromSlice(ua.IP)
	if !ok {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.permitted[ip.Unmap()] > 0
}

// ReadFrom reads what a peer sent to the allocation. A datagram from a
// peer without a permission is dropped here, uncounted (TURN would drop it
// anyway, and a stranger must not spend the client's quota); so is one
// from the relay's own address but another allocation of the same game
// (a permission is per IP: the port decides), and every datagram over the
// allocation's rate or while the username is over its quota.
func (c *relayConn) ReadFrom(p []byte) (int, net.Addr, error) {
	for {
		n, addr, err := c.PacketConn.ReadFrom(p)
		if err != nil || n == 0 {
			return n, addr, err
		}
		if !c.allowed(addr) {
			c.srv.bytesUnpermitted.Add(int64(n))
			continue
		}
		if c.fromOwnAddress(addr) {
			c.srv.refuse(reasonOwnAddress)
			continue
		}
		if c.overRate(c.in, n) || c.overQuota(n) {
			continue
		}
		return n, addr, nil
	}
}

// fromOwnAddress reports whether addr is one of the relay's own addresses
// but not a same-game allocation's relayed address.
func (c *relayConn) fromOwnAddress(addr net.Addr) bool {
	ua, ok := addr.(*net.UDPAddr)
	if !ok {
		return true
	}
	ip, _ := netip.AddrFromSlice(ua.IP)
	return c.srv.own[ip.Unmap()] && !c.srv.sameGameAllocation(c, ua.Port)
}

// WriteTo sends what the client relays to a peer. It drops (reporting it
// sent, as a lossy network would) a datagram to a peer the credential may
// not reach (peerRefusal: the TURN library checks only that a permission
// for the IP exists, and the relay's own addresses are allowed by port),
// over the allocation's rate, or while the username is over its quota.
func (c *relayConn) WriteTo(p []byte, addr net.Addr) (int, error) {
	ua, ok := addr.(*net.UDPAddr)
	if !ok {
		return len(p), nil
	}
	ip, _ := netip.AddrFromSlice(ua.IP)
	if r := c.srv.peerRefusal(c, ip, ua.Port); r != reasonNone {
		c.srv.refuse(r)
		return len(p), nil
	}
	if c.overRate(c.out, len(p)) || c.overQuota(len(p)) {
		return len(p), nil
	}
	return c.PacketConn.WriteTo(p, addr)
}

// overRate spends n bytes of b and reports whether it lacked them: the
// datagram is dropped, and counted.
func (c *relayConn) overRate(b *rateBucket, n int) bool {
	if b.take(n, time.Now()) {
		return false
	}
	c.srv.refuse(reasonRateDropped)
	c.srv.bytesOverRate.Add(int64(n))
	return true
}

// overQuota counts n bytes against the username and reports whether they
// exceed its quota.
func (c *relayConn) overQuota(n int) bool {
	if c.user.bytes.Add(int64(n)) > c.srv.cfg.MaxBytesPerUser {
		c.srv.bytesOverQuota.Add(int64(n))
		return true
	}
	c.srv.bytesRelayed.Add(int64(n))
	return false
}

// Close closes the socket and releases the allocation's place in its
// username's and its client address's quotas, once.
func (c *relayConn) Close() error {
	err := c.PacketConn.Close()
	c.closeOnce.Do(func() {
		c.srv.users.release(c.user)
		c.srv.allocations.Add(-1)
		c.srv.forget(c)
	})
	return err
}
