package relay

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/stun/v4"
	"github.com/pion/turn/v5"

	"github.com/sightline-game/sightline/netcode/iceservers"
)

// allLoopback allows every loopback peer: the tests' stand-in for a
// private network a relay's operator allows.
var allLoopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// sinkPeer is a UDP peer that counts what it receives and answers nothing.
type sinkPeer struct {
	conn  net.PacketConn
	got   atomic.Int64
	count atomic.Int64
}

func startSink(t testing.TB, ip string) *sinkPeer {
	t.Helper()
	conn, err := net.ListenPacket("udp4", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatal(err)
	}
	p := &sinkPeer{conn: conn}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 2048)
		for {
			n, _, err := conn.ReadFrom(buf)
			if err != nil {
				return
			}
			p.got.Add(int64(n))
			p.count.Add(1)
		}
	}()
	t.Cleanup(func() {
		conn.Close()
		<-done
	})
	return p
}

// allocate makes an allocation over UDP with a credential for id scoped
// to peers (none: unscoped).
func allocate(t *testing.T, s *Server, secret iceservers.Secret, id string, peers ...netip.Addr) (*turn.Client, net.PacketConn) {
	t.Helper()
	cred := iceservers.Mint(secret, id, time.Now(), time.Minute, peers...)
	c := dialUDP(t, s, cred.Username, cred.Password)
	relayed, err := c.Allocate()
	if err != nil {
		t.Fatalf("Allocate for %s: %v", id, err)
	}
	t.Cleanup(func() { relayed.Close() })
	return c, relayed
}

// serverConn is the relay's socket of the allocation relayed is the
// client's end of.
func serverConn(t *testing.T, s *Server, relayed net.PacketConn) *relayConn {
	t.Helper()
	s.connsMu.Lock()
	defer s.connsMu.Unlock()
	c := s.byPort[relayed.LocalAddr().(*net.UDPAddr).Port]
	if c == nil {
		t.Fatal("no relay socket for the allocation")
	}
	return c
}

func udpAddr(ip string, port int) *net.UDPAddr {
	return &net.UDPAddr{IP: net.ParseIP(ip).To4(), Port: port}
}

// A scoped credential relays to the peers in its scope and to no other,
// although AllowPeers lists it: its permissions are refused and what its
// relay socket is asked to send there is dropped. An unscoped one reaches
// what AllowPeers lists, and no public address.
func TestScopedCredential(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) { c.AllowPeers = allLoopback })
	peer := startEcho(t)
	other := startSink(t, "127.0.0.3")
	c, relayed := allocate(t, s, secret, "player-1", netip.MustParseAddr(peerIP))

	roundTrip(t, relayed, peer.conn.LocalAddr(), []byte("to my game"))

	before := s.Stats().RefusedScope
	if err := c.CreatePermission(other.conn.LocalAddr()); err == nil {
		t.Error("a permission for a peer outside the scope was made")
	}
	relayed.WriteTo([]byte("to another game"), other.conn.LocalAddr())
	// Past the TURN library's permission check, the relay socket itself
	// refuses: nothing leaves it for a peer outside the scope.
	serverConn(t, s, relayed).WriteTo([]byte("smuggled"), other.conn.LocalAddr())
	time.Sleep(300 * time.Millisecond)
	if n := other.got.Load(); n != 0 {
		t.Errorf("the peer outside the scope got %d bytes", n)
	}
	if after := s.Stats().RefusedScope; after < before+2 {
		t.Errorf("RefusedScope %d -> %d; want the permission and the datagram counted", before, after)
	}

	// Unscoped: AllowPeers, not a public address.
	uc, urelayed := allocate(t, s, secret, "player-2")
	if err := uc.CreatePermission(other.conn.LocalAddr()); err != nil {
		t.Errorf("an unscoped credential's permission for an allowed peer: %v", err)
	}
	before = s.Stats().RefusedScope
	public := udpAddr("198.51.100.20", 9)
	if err := uc.CreatePermission(public); err == nil {
		t.Error("an unscoped credential made a permission for a public peer")
	}
	serverConn(t, s, urelayed).WriteTo([]byte("out"), public)
	if after := s.Stats().RefusedScope; after != before+2 {
		t.Errorf("RefusedScope %d -> %d; want +2", before, after)
	}
}

func TestOwnAddresses(t *testing.T) {
	public := netip.MustParseAddr("203.0.113.77")
	own, err := ownAddresses(Config{PublicIP: public, RelayBind: netip.MustParseAddr("127.0.0.1")})
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Addr{public, netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("127.255.255.255")}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		p, err := netip.ParsePrefix(a.String())
		if err != nil {
			continue
		}
		want = append(want, p.Addr().Unmap())
		if p.Addr().Is4() && p.Bits() < 31 {
			last := p.Masked().Addr().As4()
			for i := p.Bits(); i < 32; i++ {
				last[i/8] |= 1 << (7 - i%8)
			}
			want = append(want, netip.AddrFrom4(last)) // the subnet's broadcast
		}
	}
	for _, ip := range want {
		if !own[ip] {
			t.Errorf("%s is not among the relay's own addresses %v", ip, own)
		}
	}
	if own[netip.MustParseAddr("127.0.0.2")] || own[netip.MustParseAddr("198.51.100.1")] {
		t.Errorf("own addresses %v hold another host's", own)
	}
}

// The relay refuses its own addresses as peers (its TURN port, a service
// beside it), but relays between two allocations of the same game: scopes
// sharing an address.
func TestOwnAddressRefusedButSameGameRelayed(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) { c.AllowPeers = allLoopback })
	service := startSink(t, "127.0.0.1") // an unrelated service on the relay's address
	game := netip.MustParseAddr("198.51.100.7")
	relayIP := netip.MustParseAddr("127.0.0.1")

	a, relayedA := allocate(t, s, secret, "player-a", game)
	before := s.Stats().RefusedOwnAddress
	if err := a.CreatePermission(udpAddr("127.0.0.1", 9)); err == nil {
		t.Error("a permission for the relay's own address was made with no other allocation of the game")
	}
	u, _ := allocate(t, s, secret, "unscoped")
	if err := u.CreatePermission(udpAddr("127.0.0.1", 9)); err == nil {
		t.Error("an unscoped credential made a permission for the relay's own address")
	}
	if after := s.Stats().RefusedOwnAddress; after != before+2 {
		t.Errorf("RefusedOwnAddress %d -> %d; want +2", before, after)
	}

	b, relayedB := allocate(t, s, secret, "player-b", game)
	for _, c := range []*turn.Client{a, b} {
		if err := c.CreatePermission(udpAddr(relayIP.String(), 9)); err != nil {
			t.Fatalf("a permission for a same-game allocation's address: %v", err)
		}
	}
	msg := []byte("relay to relay")
	if _, err := relayedA.WriteTo(msg, relayedB.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 2048)
	relayedB.SetReadDeadline(time.Now().Add(2 * time.Minute))
	n, from, err := relayedB.ReadFrom(buf)
	if err != nil || !bytes.Equal(buf[:n], msg) || from.String() != relayedA.LocalAddr().String() {
		t.Fatalf("B got %q from %v (%v), want %q from %v", buf[:n], from, err, msg, relayedA.LocalAddr())
	}

	// The permission is per IP; the port decides: what the service beside
	// the relay sends B is dropped, and the relay's TURN port and the
	// service get nothing from A.
	before = s.Stats().RefusedOwnAddress
	service.conn.WriteTo([]byte("from a service"), relayedB.LocalAddr())
	waitFor(t, "the service's datagram refused", func() bool { return s.Stats().RefusedOwnAddress == before+1 })
	relayedB.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if n, from, err := relayedB.ReadFrom(buf); err == nil {
		t.Errorf("B got %q from %v, the service beside the relay", buf[:n], from)
	}
	before = s.Stats().RefusedOwnAddress
	turnPort := s.Addr().(*net.UDPAddr).Port
	relayedA.WriteTo([]byte("to the TURN port"), udpAddr("127.0.0.1", turnPort))
	relayedA.WriteTo([]byte("to a service"), service.conn.LocalAddr())
	waitFor(t, "both datagrams refused", func() bool { return s.Stats().RefusedOwnAddress >= before+2 })
	time.Sleep(100 * time.Millisecond)
	if n := service.got.Load(); n != 0 {
		t.Errorf("the service on the relay's address got %d bytes", n)
	}
	if st := s.Stats(); st.RefusedAuth != 0 {
		t.Errorf("RefusedAuth = %d: the TURN port was sent something", st.RefusedAuth)
	}
}

// 1,000,000 permissions cannot be made: the 33rd peer IP is refused, and
// the 32 made still refresh.
func TestPermissionCap(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) { c.AllowPeers = allLoopback })
	c, _ := allocate(t, s, secret, "greedy")
	made := 0
	for i := 1; i <= 40; i++ {
		if err := c.CreatePermission(udpAddr(fmt.Sprintf("127.0.1.%d", i), 9)); err == nil {
			made++
		} else if i <= DefaultMaxPermissionsPerAllocation {
			t.Fatalf("permission %d refused: %v", i, err)
		}
	}
	if made != DefaultMaxPermissionsPerAllocation {
		t.Errorf("%d permissions made, want %d", made, DefaultMaxPermissionsPerAllocation)
	}
	if err := c.CreatePermission(udpAddr("127.0.1.1", 9)); err != nil {
		t.Errorf("refreshing a permission at the cap: %v", err)
	}
	if st := s.Stats(); st.RefusedPermissionsCap != 40-DefaultMaxPermissionsPerAllocation {
		t.Errorf("RefusedPermissionsCap = %d, want %d", st.RefusedPermissionsCap, 40-DefaultMaxPermissionsPerAllocation)
	}
}

// channelBinder sends ChannelBind requests as a TURN client would, signed
// with a credential.
type channelBinder struct {
	c      *turn.Client
	server net.Addr
	cred   iceservers.Credential
	nonce  stun.Nonce
}

type xorPeer struct{ addr *net.UDPAddr }

func (p xorPeer) AddTo(m *stun.Message) error {
	return stun.XORMappedAddress{IP: p.addr.IP, Port: p.addr.Port}.AddToAs(m, stun.AttrXORPeerAddress)
}

func (b *channelBinder) bind(number uint16, peer *net.UDPAddr) (*stun.Message, error) {
	setters := []stun.Setter{stun.TransactionID, stun.NewType(stun.MethodChannelBind, stun.ClassRequest),
		stun.RawAttribute{Type: stun.AttrChannelNumber, Value: []byte{byte(number >> 8), byte(number), 0, 0}}, xorPeer{peer}}
	if b.nonce != nil {
		setters = append(setters, stun.NewUsername(b.cred.Username), stun.NewRealm(DefaultRealm), b.nonce,
			stun.NewLongTermIntegrity(b.cred.Username, DefaultRealm, b.cred.Password))
	}
	msg, err := stun.Build(append(setters, stun.Fingerprint)...)
	if err != nil {
		return nil, err
	}
	res, err := b.c.PerformTransaction(msg, b.server, false)
	if err != nil {
		return nil, err
	}
	return res.Msg, nil
}

// bindChannel binds number to peer; false: refused.
func (b *channelBinder) bindChannel(t *testing.T, number uint16, peer *net.UDPAddr) bool {
	t.Helper()
	if b.nonce == nil {
		res, err := b.bind(number, peer)
		if err != nil {
			t.Fatal(err)
		}
		var nonce stun.Nonce
		if err := nonce.GetFrom(res); err != nil {
			t.Fatalf("no nonce in %v: %v", res, err)
		}
		b.nonce = nonce
	}
	res, err := b.bind(number, peer)
	if err != nil {
		t.Fatal(err)
	}
	return res.Type.Class == stun.ClassSuccessResponse
}

// 16,383 channels cannot be bound: the 33rd is refused, and the 32 bound
// still refresh.
func TestChannelCap(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) { c.AllowPeers = allLoopback })
	cred := iceservers.Mint(secret, "greedy", time.Now(), time.Minute)
	c := dialUDP(t, s, cred.Username, cred.Password)
	relayed, err := c.Allocate()
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.Close()
	b := &channelBinder{c: c, server: s.Addr(), cred: cred}
	bound := 0
	for i := range 40 {
		if b.bindChannel(t, 0x4000+uint16(i), udpAddr(peerIP, 2000+i)) {
			bound++
		} else if i < DefaultMaxChannelsPerAllocation {
			t.Fatalf("channel %d refused", i)
		}
	}
	if bound != DefaultMaxChannelsPerAllocation {
		t.Errorf("%d channels bound, want %d", bound, DefaultMaxChannelsPerAllocation)
	}
	if !b.bindChannel(t, 0x4000, udpAddr(peerIP, 2000)) {
		t.Error("refreshing a channel at the cap was refused")
	}
	if st := s.Stats(); st.RefusedChannelsCap != 40-DefaultMaxChannelsPerAllocation {
		t.Errorf("RefusedChannelsCap = %d, want %d", st.RefusedChannelsCap, 40-DefaultMaxChannelsPerAllocation)
	}
	rc := serverConn(t, s, relayed)
	rc.mu.Lock()
	n := len(rc.channels)
	rc.mu.Unlock()
	if n != DefaultMaxChannelsPerAllocation {
		t.Errorf("the allocation holds %d channels", n)
	}
}

// Clients at one address hold at most MaxAllocationsPerAddress
// allocations, whatever their credentials.
func TestAllocationsPerAddressCap(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, nil)
	for i := range DefaultMaxAllocationsPerAddress {
		allocate(t, s, secret, fmt.Sprintf("player-%d", i))
	}
	cred := iceservers.Mint(secret, "one-more", time.Now(), time.Minute)
	if relayed, err := dialUDP(t, s, cred.Username, cred.Password).Allocate(); err == nil {
		relayed.Close()
		t.Fatal("an allocation over the address's cap was made")
	}
	if st := s.Stats(); st.RefusedAllocationsPerAddress != 1 || st.Allocations != DefaultMaxAllocationsPerAddress {
		t.Errorf("Stats = %+v; want 1 refusal, %d allocations", st, DefaultMaxAllocationsPerAddress)
	}
}

func TestClientPrefix(t *testing.T) {
	tests := []struct {
		addr net.Addr
		want string
	}{
		{&net.UDPAddr{IP: net.ParseIP("198.51.100.1"), Port: 1}, "198.51.100.1/32"},
		{&net.TCPAddr{IP: net.ParseIP("::ffff:198.51.100.1"), Port: 1}, "198.51.100.1/32"},
		{&net.UDPAddr{IP: net.ParseIP("2001:db8:1:2:3:4:5:6"), Port: 1}, "2001:db8:1:2::/64"},
		{&net.UDPAddr{IP: net.ParseIP("2001:db8:1:2:ffff::1"), Port: 2}, "2001:db8:1:2::/64"},
	}
	for _, tt := range tests {
		if got := clientPrefix(tt.addr); got.String() != tt.want {
			t.Errorf("clientPrefix(%v) = %v, want %s", tt.addr, got, tt.want)
		}
	}
}

func TestAllocationsTotalCap(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) { c.MaxAllocations = 3 })
	for i := range 3 {
		allocate(t, s, secret, fmt.Sprintf("player-%d", i))
	}
	cred := iceservers.Mint(secret, "one-more", time.Now(), time.Minute)
	if relayed, err := dialUDP(t, s, cred.Username, cred.Password).Allocate(); err == nil {
		relayed.Close()
		t.Fatal("an allocation over the relay's cap was made")
	}
	if st := s.Stats(); st.RefusedAllocationsTotal != 1 || st.Allocations != 3 {
		t.Errorf("Stats = %+v; want 1 refusal, 3 allocations", st)
	}
}

// An allocation that blasts (a 1000-byte datagram a millisecond, some 15
// times the rate) relays no more than its rate: over ~2 s the relay sends
// the peer at most the burst and 1.1 times the rate for the time it ran (a
// ceiling a slow machine cannot break).
func TestRateCap(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) { c.AllowPeers = loopbackOnly })
	sink := startSink(t, peerIP)
	start := time.Now()
	_, relayed := allocate(t, s, secret, "blaster")
	payload := make([]byte, 1000)
	var sent int64
	// What the relay may pass in d: its burst and its rate, with a tenth
	// to spare.
	ceilingAt := func(d time.Duration) float64 {
		return float64(DefaultRateBurstBytes) + 1.1*float64(DefaultRateBytesPerSecond)*d.Seconds()
	}
	// At least 2 s, and twice what the relay may pass meanwhile, however
	// slowly a busy machine lets the sender go (it sent half the cap's
	// worth paced by 1 ms sleeps); 16 datagrams between sleeps.
	for i := 0; time.Since(start) < 2*time.Second || float64(sent) < 2*ceilingAt(time.Since(start)); i++ {
		if time.Since(start) > time.Minute {
			t.Fatalf("sent %d bytes in a minute", sent)
		}
		if _, err := relayed.WriteTo(payload, sink.conn.LocalAddr()); err == nil {
			sent += int64(len(payload))
		}
		if i%16 == 15 {
			time.Sleep(time.Millisecond)
		}
	}
	time.Sleep(100 * time.Millisecond)
	elapsed := time.Since(start).Seconds()
	st := s.Stats()
	got := sink.got.Load()
	ceiling := ceilingAt(time.Since(start))
	t.Logf("sent %d bytes in %.2f s (%.0f B/s); the relay relayed %d (%.0f B/s over the window, %.0f B/s beyond the %d-byte burst), the peer got %d; cap %d B/s, ceiling %.0f bytes; %d datagrams (%d bytes) dropped over the rate",
		sent, elapsed, float64(sent)/elapsed, st.BytesRelayed, float64(st.BytesRelayed)/elapsed,
		float64(st.BytesRelayed-DefaultRateBurstBytes)/elapsed, DefaultRateBurstBytes, got,
		DefaultRateBytesPerSecond, ceiling, st.DroppedOverRate, st.BytesOverRate)
	if float64(st.BytesRelayed) > ceiling || float64(got) > ceiling {
		t.Errorf("the relay relayed %d bytes (the peer got %d) in %.2f s, over the ceiling %.0f", st.BytesRelayed, got, elapsed, ceiling)
	}
	if got == 0 || st.DroppedOverRate == 0 {
		t.Errorf("the peer got %d bytes, %d datagrams dropped over the rate; want some of each", got, st.DroppedOverRate)
	}
}

func TestRateBucket(t *testing.T) {
	t0 := time.Unix(1000, 0)
	b := newRateBucket(100, 300, t0)
	if !b.take(300, t0) || b.take(1, t0) {
		t.Fatal("the burst is not 300")
	}
	if !b.take(100, t0.Add(time.Second)) || b.take(1, t0.Add(time.Second)) {
		t.Fatal("a second does not refill 100")
	}
	if !b.take(300, t0.Add(time.Hour)) || b.take(1, t0.Add(time.Hour)) {
		t.Fatal("an hour refills more than the burst")
	}
}

// Every request with an expired credential is refused, whatever its
// method, while its username still holds an allocation.
func TestExpiredCredentialRefusedEveryMethod(t *testing.T) {
	secret := newSecret(t)
	var clk clock
	clk.unix.Store(time.Now().Unix())
	s := startRelay(t, secret, func(c *Config) { c.now = clk.now })
	cred := iceservers.Mint(secret, "player-1", clk.now(), time.Minute)
	relayed, err := dialUDP(t, s, cred.Username, cred.Password).Allocate()
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.Close()
	clk.add(2 * time.Minute)
	for _, m := range []stun.Method{stun.MethodAllocate, stun.MethodRefresh, stun.MethodCreatePermission, stun.MethodChannelBind} {
		before := s.Stats().RefusedExpired
		if _, _, ok := s.authenticate(&turn.RequestAttributes{Username: cred.Username, Realm: DefaultRealm, Method: m}); ok {
			t.Errorf("%v with an expired credential was let through", m)
		}
		if after := s.Stats().RefusedExpired; after != before+1 {
			t.Errorf("%v: RefusedExpired %d -> %d", m, before, after)
		}
	}
}

// Each refusal reason is a sightline_relay_refused_total series, counting
// what Stats counts.
func TestRefusalReasonsInMetrics(t *testing.T) {
	s := startRelay(t, newSecret(t), nil)
	for r := range numReasons {
		for range int(r) + 1 {
			s.refuse(r)
		}
	}
	got := gather(t, s)
	refused := s.Stats().Refused()
	if len(refused) != int(numReasons) {
		t.Errorf("Stats.Refused has %d reasons, want %d", len(refused), numReasons)
	}
	for r := range numReasons {
		name := `sightline_relay_refused_total{reason="` + r.String() + `"}`
		if got[name] != float64(r+1) || refused[r.String()] != int64(r+1) {
			t.Errorf("%s = %v, Stats %d; want %d", name, got[name], refused[r.String()], r+1)
		}
	}
}

// recorder is a slog handler that keeps the records.
type recorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, rec)
	return nil
}
func (r *recorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *recorder) WithGroup(string) slog.Handler      { return r }

func (r *recorder) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, rec := range r.records {
		line := rec.Message
		rec.Attrs(func(a slog.Attr) bool {
			line += " " + a.String()
			return true
		})
		out = append(out, line)
	}
	return out
}

// The TURN library's Warn and Error lines pass at most logBurst a second;
// one line then says how many were held back.
func TestTURNLogFloodLimited(t *testing.T) {
	var rec recorder
	var clk clock
	clk.unix.Store(1000)
	f := newSlogFactory(slog.New(&rec), clk.now)
	l := f.NewLogger("server")
	for i := range 100 {
		l.Errorf("bad request %d", i)
		l.Warn("bad")
		l.Debug("passes uncounted")
	}
	if got := len(rec.messages()); got != logBurst+100 {
		t.Fatalf("%d lines in the first second, want %d (and the 100 debug lines)", got, logBurst+100)
	}
	clk.add(time.Second)
	l.Error("next second")
	msgs := rec.messages()
	if got := msgs[len(msgs)-2]; !strings.Contains(got, "suppressed=190") {
		t.Errorf("the line before the next second's is %q, want the 190 held back", got)
	}
	if got := msgs[len(msgs)-1]; got != "next second" {
		t.Errorf("last line %q", got)
	}
	for range 20 {
		l.Error("more")
	}
	f.flush()
	msgs = rec.messages()
	if got := msgs[len(msgs)-1]; !strings.Contains(got, "suppressed=11") {
		t.Errorf("flush logged %q, want the 11 held back", got)
	}
}

// Binding requests with an unknown comprehension-required attribute, which
// anyone can send and the library logs one by one, flood no log. (Those a
// UDP intake drops before the library are neither answered nor logged.)
func TestMalformedRequestsFloodNoLog(t *testing.T) {
	var rec recorder
	s := startRelay(t, newSecret(t), func(c *Config) { c.Logger = slog.New(&rec) })
	conn, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	const n = 200
	for range n {
		msg, err := stun.Build(stun.TransactionID, stun.BindingRequest,
			stun.RawAttribute{Type: stun.AttrType(0x7F01), Value: []byte{1, 2, 3, 4}}, stun.Fingerprint)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.WriteTo(msg.Raw, s.Addr()); err != nil {
			t.Fatal(err)
		}
	}
	answered := 0
	buf := make([]byte, 2048)
	for answered < n {
		conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		if _, _, err := conn.ReadFrom(buf); err != nil {
			break
		}
		answered++
	}
	seconds := int(time.Since(start)/time.Second) + 1
	lines := 0
	for _, m := range rec.messages() {
		if strings.Contains(m, "unknown comprehension-required") {
			lines++
		}
	}
	t.Logf("%d requests, %d answered, %d lines logged in %d s", n, answered, lines, seconds)
	if answered == 0 {
		t.Fatal("no request answered")
	}
	if lines == 0 || lines > logBurst*seconds {
		t.Errorf("%d lines logged for %d requests in %d s, want 1 to %d", lines, answered, seconds, logBurst*seconds)
	}
}

// A TCP or TLS connection hands the TURN library one whole frame a read,
// however the client's writes cut them, and remembers a ChannelBind's
// channel and peer; between frames it holds no buffer.
func TestFrameConnOneFrameARead(t *testing.T) {
	bind, err := stun.Build(stun.TransactionID, stun.NewType(stun.MethodChannelBind, stun.ClassRequest),
		stun.RawAttribute{Type: stun.AttrChannelNumber, Value: []byte{0x40, 0x07, 0, 0}}, xorPeer{udpAddr("198.51.100.3", 4242)})
	if err != nil {
		t.Fatal(err)
	}
	perm, err := stun.Build(stun.TransactionID, stun.NewType(stun.MethodCreatePermission, stun.ClassRequest), xorPeer{udpAddr("198.51.100.4", 1)})
	if err != nil {
		t.Fatal(err)
	}
	data := []byte{0x40, 0x07, 0, 5, 'h', 'e', 'l', 'l', 'o', 0, 0, 0} // ChannelData, padded to 4
	client, server := net.Pipe()
	defer client.Close()
	l := newStreamIntake(nil)
	fc := &frameConn{Conn: server, listener: l}
	l.conns[server.RemoteAddr().String()] = []*frameConn{fc}
	go func() {
		stream := append(append(append([]byte{}, bind.Raw...), data...), perm.Raw...)
		client.Write(stream[:len(bind.Raw)+len(data)+3]) // two frames and the start of a third
		client.Write(stream[len(bind.Raw)+len(data)+3:])
	}()
	buf := make([]byte, 1600)
	for i, want := range []struct {
		frame  []byte
		method stun.Method
	}{{bind.Raw, stun.MethodChannelBind}, {data, 0}, {perm.Raw, stun.MethodCreatePermission}} {
		n, err := fc.Read(buf)
		if err != nil || !bytes.Equal(buf[:n], want.frame) {
			t.Fatalf("read %d: %d bytes, %v; want the frame of %d", i, n, err, len(want.frame))
		}
		if fc.last.method != want.method {
			t.Errorf("read %d: method %v, want %v", i, fc.last.method, want.method)
		}
		if i == 0 && (fc.last.channel != 0x4007 || fc.last.peer != netip.MustParseAddrPort("198.51.100.3:4242")) {
			t.Errorf("ChannelBind read as %+v", fc.last)
		}
	}
	if fc.buf != nil {
		t.Errorf("%d bytes held between frames", len(fc.buf))
	}
	fc.Close()
	if len(l.conns) != 0 {
		t.Error("a closed connection stays in its listener's table")
	}
}

// The cap of allocations per address holds when clients at the address
// ask at once (the library handles each TCP connection on a goroutine of
// its own), and an allocation that fails after the quota check gives its
// place back.
func TestAllocationsPerAddressConcurrent(t *testing.T) {
	secret := newSecret(t)
	var rec recorder
	s := startRelay(t, secret, func(c *Config) {
		c.MaxAllocationsPerAddress = 4
		c.Logger = slog.New(&rec)
	})

	// IPv6 relayed addresses cannot be made on 127.0.0.1: the allocation
	// fails past the quota check.
	failing := iceservers.Mint(secret, "v6", time.Now(), time.Minute)
	fconn, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fc, err := turn.NewClient(&turn.ClientConfig{STUNServerAddr: s.Addr().String(), TURNServerAddr: s.Addr().String(),
		Username: failing.Username, Password: failing.Password, Realm: DefaultRealm, Conn: fconn,
		RequestedAddressFamily: turn.RequestedAddressFamilyIPv6})
	if err != nil {
		t.Fatal(err)
	}
	defer fconn.Close()
	defer fc.Close()
	if err := fc.Listen(); err != nil {
		t.Fatal(err)
	}
	if a, err := fc.Allocate(); err == nil {
		a.Close()
		t.Fatal("an IPv6 allocation on 127.0.0.1 was made")
	}
	waitFor(t, "the failed allocation's place given back", func() bool {
		s.connsMu.Lock()
		defer s.connsMu.Unlock()
		return len(s.byClient) == 0 && len(s.reserved) == 0
	})
	if !slices.ContainsFunc(rec.messages(), func(m string) bool { return strings.HasPrefix(m, "relay allocation failed") }) {
		t.Error("the IPv6 allocation did not fail past the quota check")
	}

	const clients = 10
	var made atomic.Int64
	var wg sync.WaitGroup
	for i := range clients {
		cred := iceservers.Mint(secret, fmt.Sprintf("player-%d", i), time.Now(), time.Minute)
		tcp, err := net.Dial("tcp", s.TCPAddr().String())
		if err != nil {
			t.Fatal(err)
		}
		c := startClient(t, turn.NewSTUNConn(tcp), s.TCPAddr().String(), cred.Username, cred.Password)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if relayed, err := c.Allocate(); err == nil {
				made.Add(1)
				t.Cleanup(func() { relayed.Close() })
			}
		}()
	}
	wg.Wait()
	if st := s.Stats(); made.Load() != 4 || st.Allocations != 4 || st.RefusedAllocationsPerAddress != clients-4 {
		t.Errorf("%d allocations made of %d asked at once, Stats %+v; want 4 made, %d refused", made.Load(), clients, st, clients-4)
	}
}

// A flood's held-back count is logged within a second, though no line
// passes after it.
func TestTURNLogFloodReportedAfterItStops(t *testing.T) {
	var rec recorder
	s := startRelay(t, newSecret(t), func(c *Config) { c.Logger = slog.New(&rec) })
	l := s.logs.NewLogger("server")
	for range 3 * logBurst {
		l.Errorf("flood")
	}
	waitFor(t, "the held-back lines reported", func() bool {
		return slices.ContainsFunc(rec.messages(), func(m string) bool {
			return strings.Contains(m, fmt.Sprintf("suppressed=%d", 2*logBurst))
		})
	})
}
