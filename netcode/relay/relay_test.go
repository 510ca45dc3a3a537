package relay

import (
	"bytes"
	"crypto/tls"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/turn/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/iceservers"
)

// clock is a settable time for the relay under test.
type clock struct{ unix atomic.Int64 }

func (c *clock) now() time.Time      { return time.Unix(c.unix.Load(), 0) }
func (c *clock) add(d time.Duration) { c.unix.Add(int64(d / time.Second)) }

func newSecret(t testing.TB) iceservers.Secret {
	t.Helper()
	s, err := iceservers.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// startRelay runs a relay on loopback UDP and TCP with relay sockets on
// 127.0.0.1, the given changes made to its Config.
func startRelay(t testing.TB, secret iceservers.Secret, edit func(*Config)) *Server {
	t.Helper()
	cfg := Config{
		Addr:      "127.0.0.1:0",
		Secret:    secret,
		RelayBind: netip.MustParseAddr("127.0.0.1"),
	}
	if edit != nil {
		edit(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// dialUDP makes a TURN client of the relay over UDP.
func dialUDP(t testing.TB, s *Server, username, password string) *turn.Client {
	t.Helper()
	conn, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return startClient(t, conn, s.Addr().String(), username, password)
}

func startClient(t testing.TB, conn net.PacketConn, addr, username, password string) *turn.Client {
	t.Helper()
	c, err := turn.NewClient(&turn.ClientConfig{
		STUNServerAddr: addr,
		TURNServerAddr: addr,
		Username:       username,
		Password:       password,
		Realm:          DefaultRealm,
		Conn:           conn,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Listen(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		conn.Close()
	})
	return c
}

// echoPeer is a UDP peer on loopback that sends back what it receives and
// counts it.
type echoPeer struct {
	conn net.PacketConn
	got  atomic.Int64
}

// peerIP is where the tests' peers listen: loopback, but not the relay's
// own address (127.0.0.1, which it refuses as a peer).
const peerIP = "127.0.0.2"

func startEcho(t testing.TB) *echoPeer {
	t.Helper()
	return startEchoAt(t, peerIP)
}

// startEchoAt starts an echoPeer on ip.
func startEchoAt(t testing.TB, ip string) *echoPeer {
	t.Helper()
	conn, err := net.ListenPacket("udp4", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatal(err)
	}
	p := &echoPeer{conn: conn}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 2048)
		for {
			n, from, err := conn.ReadFrom(buf)
			if err != nil {
				return
			}
			p.got.Add(int64(n))
			conn.WriteTo(buf[:n], from)
		}
	}()
	t.Cleanup(func() {
		conn.Close()
		<-done
	})
	return p
}

// roundTrip sends msg through the allocation to peer and waits for the
// echo.
func roundTrip(t *testing.T, relayed net.PacketConn, peer net.Addr, msg []byte) {
	t.Helper()
	if _, err := relayed.WriteTo(msg, peer); err != nil {
		t.Fatalf("WriteTo peer: %v", err)
	}
	buf := make([]byte, 2048)
	relayed.SetReadDeadline(time.Now().Add(2 * time.Minute))
	n, from, err := relayed.ReadFrom(buf)
	if err != nil {
		t.Fatalf("no echo through the relay: %v", err)
	}
	if !bytes.Equal(buf[:n], msg) || from.String() != peer.String() {
		t.Fatalf("got %q from %v, want %q from %v", buf[:n], from, msg, peer)
	}
}

// loopbackOnly allows the tests' peer address, and no other.
var loopbackOnly = []netip.Prefix{netip.MustParsePrefix(peerIP + "/32")}

func TestAllocateAndRelay(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) { c.AllowPeers = loopbackOnly })
	peer := startEcho(t)
	cred := iceservers.Mint(secret, "player-1", time.Now(), time.Minute)
	c := dialUDP(t, s, cred.Username, cred.Password)
	relayed, err := c.Allocate()
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	if got := relayed.LocalAddr().(*net.UDPAddr); !got.IP.Equal(net.IPv4(127, 0, 0, 1)) || got.Port == 0 {
		t.Errorf("relayed address %v, want 127.0.0.1:port", got)
	}
	msg := []byte("hello through the relay")
	roundTrip(t, relayed, peer.conn.LocalAddr(), msg)

	st := s.Stats()
	if st.Allocations != 1 || st.AllocationsTotal != 1 || st.Users != 1 {
		t.Errorf("Stats = %+v; want 1 live allocation of 1 user", st)
	}
	if want := int64(2 * len(msg)); st.BytesRelayed != want {
		t.Errorf("BytesRelayed = %d, want %d", st.BytesRelayed, want)
	}
	if st.RefusedAuth != 0 || st.RefusedPeer != 0 {
		t.Errorf("Stats = %+v; want no refusals", st)
	}
	if got := gather(t, s); got["sightline_relay_allocations"] != 1 || got["sightline_relay_relayed_bytes_total"] != float64(2*len(msg)) ||
		got[`sightline_relay_refused_total{reason="auth"}`] != 0 || len(got) != 29 {
		t.Errorf("metrics = %v", got)
	}

	relayed.Close()
	waitFor(t, "allocation released", func() bool { return s.Stats().Allocations == 0 })
}

func TestRefusedCredentials(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, nil)
	now := time.Now()
	expired := iceservers.Mint(secret, "late", now.Add(-time.Hour), time.Minute)
	forged := iceservers.Mint(newSecret(t), "forger", now, time.Minute)
	tooLong := iceservers.Mint(secret, "greedy", now, 48*time.Hour)
	tests := []struct {
		name               string
		username, password string
		reason             func(Stats) int64 // the count it is refused under
	}{
		{"no username", "", "whatever", authRefusals},
		{"expired", expired.Username, expired.Password, func(st Stats) int64 { return st.RefusedExpired }},
		{"wrong secret", forged.Username, forged.Password, authRefusals},
		{"too long", tooLong.Username, tooLong.Password, authRefusals},
		{"not a TURN REST username", "alice", "secret", authRefusals},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.reason(s.Stats())
			c := dialUDP(t, s, tt.username, tt.password)
			if relayed, err := c.Allocate(); err == nil {
				relayed.Close()
				t.Fatal("Allocate succeeded")
			}
			if after := tt.reason(s.Stats()); after <= before {
				t.Errorf("refusals %d -> %d; want it counted", before, after)
			}
			if st := s.Stats(); st.Allocations != 0 || st.AllocationsTotal != 0 {
				t.Errorf("Stats = %+v; want no allocations", st)
			}
		})
	}
}

func authRefusals(st Stats) int64 { return st.RefusedAuth }

func TestPeerPolicy(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, nil) // default AllowPeers: loopback denied
	peer := startEcho(t)
	cred := iceservers.Mint(secret, "player-1", time.Now(), time.Minute)
	c := dialUDP(t, s, cred.Username, cred.Password)
	relayed, err := c.Allocate()
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.Close()

	for _, ip := range []string{"127.0.0.1", "169.254.169.254", "10.1.2.3"} {
		t.Run("denied "+ip, func(t *testing.T) {
			before := s.Stats().RefusedPeer
			err := c.CreatePermission(&net.UDPAddr{IP: net.ParseIP(ip), Port: 9})
			if err == nil {
				t.Errorf("CreatePermission(%s) succeeded", ip)
			}
			if after := s.Stats().RefusedPeer; after != before+1 {
				t.Errorf("RefusedPeer %d -> %d; want +1", before, after)
			}
		})
	}
	t.Run("no data to a denied peer", func(t *testing.T) {
		relayed.WriteTo([]byte("to loopback"), peer.conn.LocalAddr())
		time.Sleep(300 * time.Millisecond)
		if n := peer.got.Load(); n != 0 {
			t.Errorf("the loopback peer got %d bytes", n)
		}
		if st := s.Stats(); st.BytesRelayed != 0 {
			t.Errorf("BytesRelayed = %d, want 0", st.BytesRelayed)
		}
	})
	t.Run("granted 203.0.113.9 in scope", func(t *testing.T) {
		scoped := iceservers.Mint(secret, "player-2", time.Now(), time.Minute, netip.MustParseAddr("203.0.113.9"))
		sc := dialUDP(t, s, scoped.Username, scoped.Password)
		relayed, err := sc.Allocate()
		if err != nil {
			t.Fatal(err)
		}
		defer relayed.Close()
		before := s.Stats()
		if err := sc.CreatePermission(&net.UDPAddr{IP: net.ParseIP("203.0.113.9"), Port: 9}); err != nil {
			t.Errorf("CreatePermission(203.0.113.9): %v", err)
		}
		if after := s.Stats(); after.RefusedPeer != before.RefusedPeer || after.RefusedScope != before.RefusedScope {
			t.Errorf("RefusedPeer %d -> %d, RefusedScope %d -> %d; want unchanged", before.RefusedPeer, after.RefusedPeer, before.RefusedScope, after.RefusedScope)
		}
	})
	t.Run("unscoped refused 203.0.113.9", func(t *testing.T) {
		before := s.Stats().RefusedScope
		if err := c.CreatePermission(&net.UDPAddr{IP: net.ParseIP("203.0.113.9"), Port: 9}); err == nil {
			t.Error("an unscoped credential made a permission for a public peer AllowPeers does not list")
		}
		if after := s.Stats().RefusedScope; after != before+1 {
			t.Errorf("RefusedScope %d -> %d; want +1", before, after)
		}
	})
}

func TestAllocationQuota(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) { c.MaxAllocationsPerUser = 1 })
	cred := iceservers.Mint(secret, "player-1", time.Now(), time.Minute)
	first, err := dialUDP(t, s, cred.Username, cred.Password).Allocate()
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := dialUDP(t, s, cred.Username, cred.Password).Allocate()
	if err == nil {
		second.Close()
		t.Fatal("a second allocation for the same username succeeded")
	}
	if !strings.Contains(err.Error(), "486") && !strings.Contains(strings.ToLower(err.Error()), "quota") {
		t.Logf("refusal: %v", err)
	}
	if st := s.Stats(); st.RefusedQuota != 1 || st.Allocations != 1 {
		t.Errorf("Stats = %+v; want 1 quota refusal and 1 live allocation", st)
	}
	other := iceservers.Mint(secret, "player-2", time.Now(), time.Minute)
	third, err := dialUDP(t, s, other.Username, other.Password).Allocate()
	if err != nil {
		t.Fatalf("another username's allocation: %v", err)
	}
	third.Close()
}

func TestByteQuota(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) {
		c.AllowPeers = loopbackOnly
		c.MaxBytesPerUser = 100
	})
	peer := startEcho(t)
	cred := iceservers.Mint(secret, "player-1", time.Now(), time.Minute)
	relayed, err := dialUDP(t, s, cred.Username, cred.Password).Allocate()
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.Close()
	msg := bytes.Repeat([]byte("x"), 60)
	if _, err := relayed.WriteTo(msg, peer.conn.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	// 60 bytes out fit the quota of 100; the 60 echoed back do not.
	relayed.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	if n, _, err := relayed.ReadFrom(make([]byte, 2048)); err == nil {
		t.Fatalf("got %d bytes back over quota", n)
	}
	if got := peer.got.Load(); got != 60 {
		t.Errorf("peer got %d bytes, want 60", got)
	}
	if st := s.Stats(); st.BytesRelayed != 60 || st.BytesOverQuota != 60 {
		t.Errorf("Stats = %+v; want 60 bytes relayed and 60 over quota", st)
	}
	relayed.WriteTo(msg, peer.conn.LocalAddr())
	time.Sleep(200 * time.Millisecond)
	if got := peer.got.Load(); got != 60 {
		t.Errorf("peer got %d bytes after the quota, want still 60", got)
	}
}

// A stranger (a peer the client gave no permission) who sends to an
// allocation's relayed address spends nothing of its username's quota,
// and nothing of it reaches the client.
func TestStrangerSpendsNoQuota(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) {
		c.AllowPeers = loopbackOnly
		c.MaxBytesPerUser = 1000
	})
	peer := startEcho(t)
	cred := iceservers.Mint(secret, "player-1", time.Now(), time.Minute)
	relayed, err := dialUDP(t, s, cred.Username, cred.Password).Allocate()
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.Close()
	stranger, err := net.ListenPacket("udp4", "127.0.0.3:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()
	junk := bytes.Repeat([]byte("j"), 500)
	for range 10 { // 5000 bytes: five times the quota
		stranger.WriteTo(junk, relayed.LocalAddr())
	}
	time.Sleep(200 * time.Millisecond)
	if st := s.Stats(); st.BytesRelayed != 0 || st.BytesOverQuota != 0 || st.BytesUnpermitted != 5000 {
		t.Errorf("after a stranger's 5000 bytes: %+v; want none relayed or over quota, 5000 unpermitted", st)
	}
	// The permitted peer still gets through, within the quota.
	roundTrip(t, relayed, peer.conn.LocalAddr(), []byte("hello"))
	if st := s.Stats(); st.BytesRelayed != 10 {
		t.Errorf("after a 5-byte round trip: %d bytes relayed, want 10", st.BytesRelayed)
	}
}

// TestExpiredCredentialEndsAllocation: a credential that expires ends its
// allocation, and no request made with it passes after: not a permission,
// not a new allocation.
func TestExpiredCredentialEndsAllocation(t *testing.T) {
	secret := newSecret(t)
	var clk clock
	clk.unix.Store(time.Now().Unix())
	s := startRelay(t, secret, func(c *Config) {
		c.now = clk.now
		c.AllowPeers = loopbackOnly
	})
	cred := iceservers.Mint(secret, "player-1", clk.now(), time.Minute)
	c := dialUDP(t, s, cred.Username, cred.Password)
	relayed, err := c.Allocate()
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.Close()
	peer := &net.UDPAddr{IP: net.ParseIP(peerIP), Port: 9}
	if err := c.CreatePermission(peer); err != nil {
		t.Fatalf("CreatePermission before expiry: %v", err)
	}
	clk.add(2 * time.Minute)
	before := s.Stats().RefusedExpired
	if err := c.CreatePermission(peer); err == nil {
		t.Error("CreatePermission after expiry succeeded")
	}
	if again, err := dialUDP(t, s, cred.Username, cred.Password).Allocate(); err == nil {
		again.Close()
		t.Error("a new allocation with an expired credential succeeded")
	}
	if after := s.Stats().RefusedExpired; after < before+2 {
		t.Errorf("RefusedExpired %d -> %d; want both refusals counted", before, after)
	}
	// The relay closes the allocation at its credential's expiry.
	waitFor(t, "the expired allocation closed", func() bool { return s.Stats().Allocations == 0 })
	if st := s.Stats(); st.AllocationsExpired != 1 {
		t.Errorf("AllocationsExpired = %d, want 1", st.AllocationsExpired)
	}
	// Once the allocation ends, the expired username is forgotten.
	s.users.sweep(clk.now())
	if st := s.Stats(); st.Users != 0 {
		t.Errorf("Users = %d after the sweep, want 0", st.Users)
	}
}

func TestTCPClient(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) { c.AllowPeers = loopbackOnly })
	peer := startEcho(t)
	cred := iceservers.Mint(secret, "player-1", time.Now(), time.Minute)
	tcp, err := net.Dial("tcp", s.TCPAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	c := startClient(t, turn.NewSTUNConn(tcp), s.TCPAddr().String(), cred.Username, cred.Password)
	relayed, err := c.Allocate()
	if err != nil {
		t.Fatalf("Allocate over TCP: %v", err)
	}
	defer relayed.Close()
	roundTrip(t, relayed, peer.conn.LocalAddr(), []byte("over tcp"))
}

func TestTLSClient(t *testing.T) {
	secret := newSecret(t)
	cert := testnet.SelfSigned(t)
	pair, err := tls.LoadX509KeyPair(cert.CertFile, cert.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	s := startRelay(t, secret, func(c *Config) {
		c.AllowPeers = loopbackOnly
		c.TLSAddr = "127.0.0.1:0"
		c.TLSConfig = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	})
	peer := startEcho(t)
	cred := iceservers.Mint(secret, "player-1", time.Now(), time.Minute)
	conn, err := tls.Dial("tcp", s.TLSAddr().String(), &tls.Config{RootCAs: cert.Pool, ServerName: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	c := startClient(t, turn.NewSTUNConn(conn), s.TLSAddr().String(), cred.Username, cred.Password)
	relayed, err := c.Allocate()
	if err != nil {
		t.Fatalf("Allocate over TLS: %v", err)
	}
	defer relayed.Close()
	roundTrip(t, relayed, peer.conn.LocalAddr(), []byte("over tls"))
}

func TestTCPAllocationRefused(t *testing.T) {
	secret := newSecret(t)
	s := startRelay(t, secret, nil)
	cred := iceservers.Mint(secret, "player-1", time.Now(), time.Minute)
	tcp, err := net.Dial("tcp", s.TCPAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	c := startClient(t, turn.NewSTUNConn(tcp), s.TCPAddr().String(), cred.Username, cred.Password)
	if a, err := c.AllocateTCP(); err == nil {
		a.Close()
		t.Fatal("TCP allocation succeeded")
	}
	if st := s.Stats(); st.RefusedTCP != 1 || st.Allocations != 0 {
		t.Errorf("Stats = %+v; want 1 TCP refusal, no allocation", st)
	}
}

func TestNewRefusesConfig(t *testing.T) {
	secret := newSecret(t)
	tests := []struct {
		name string
		cfg  Config
		want error
	}{
		{"no secret", Config{Addr: "127.0.0.1:0", RelayBind: netip.MustParseAddr("127.0.0.1")}, ErrNoSecret},
		{"no listener", Config{Secret: secret, RelayBind: netip.MustParseAddr("127.0.0.1")}, ErrNoListener},
		{"no public IP", Config{Addr: "127.0.0.1:0", Secret: secret}, ErrNoPublicIP},
		{"TLS without config", Config{TLSAddr: "127.0.0.1:0", Secret: secret, PublicIP: netip.MustParseAddr("203.0.113.1")}, ErrNoTLSConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(tt.cfg)
			if !errors.Is(err, tt.want) {
				if s != nil {
					s.Close()
				}
				t.Fatalf("New = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestDeniedPeer(t *testing.T) {
	tests := []struct {
		ip     string
		denied bool
	}{
		{"0.0.0.0", true},
		{"0.1.2.3", true},
		{"127.0.0.1", true},
		{"127.255.255.254", true},
		{"169.254.169.254", true},
		{"169.254.0.1", true},
		{"10.0.0.1", true},
		{"172.16.0.1", true},
		{"172.31.255.255", true},
		{"192.168.1.1", true},
		{"100.64.0.1", true},
		{"100.127.255.255", true},
		{"192.0.0.170", true},
		{"198.18.0.1", true},
		{"224.0.0.251", true},
		{"239.255.255.250", true},
		{"255.255.255.255", true},
		{"::", true},
		{"::1", true},
		{"fe80::1", true},
		{"fe80::1%eth0", true},
		{"fc00::1", true},
		{"fd00:ec2::254", true},
		{"ff02::1", true},
		{"::ffff:127.0.0.1", true},
		{"::ffff:169.254.169.254", true},
		{"::ffff:10.0.0.1", true},
		{"64:ff9b::a9fe:a9fe", true}, // NAT64 of 169.254.169.254
		{"::127.0.0.1", true},
		// Public addresses pass.
		{"203.0.113.9", false},
		{"8.8.8.8", false},
		{"172.32.0.1", false},
		{"100.128.0.1", false},
		{"192.0.1.1", false},
		{"169.253.255.255", false},
		{"11.0.0.1", false},
		{"2001:db8::1", false},
		{"2606:4700::1111", false},
		{"::ffff:8.8.8.8", false},
		{"64:ff9b::808:808", false},
	}
	for _, tt := range tests {
		ip := netip.MustParseAddr(tt.ip)
		if got := DeniedPeer(ip); got != tt.denied {
			t.Errorf("DeniedPeer(%s) = %v, want %v", tt.ip, got, tt.denied)
		}
	}
	if !DeniedPeer(netip.Addr{}) {
		t.Error("DeniedPeer(invalid) = false")
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	waitWithin(t, 2*time.Minute, what, cond)
}

// waitWithin polls cond until it holds, failing the test after d.
func waitWithin(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting: %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// gather collects the relay's metrics as name{labels} -> value.
func gather(t *testing.T, s *Server) map[string]float64 {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(s.Collector()); err != nil {
		t.Fatal(err)
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]float64)
	for _, f := range families {
		for _, m := range f.GetMetric() {
			name := f.GetName()
			for _, l := range m.GetLabel() {
				name += "{" + l.GetName() + "=\"" + l.GetValue() + "\"}"
			}
			switch {
			case m.GetGauge() != nil:
				out[name] = m.GetGauge().GetValue()
			case m.GetCounter() != nil:
				out[name] = m.GetCounter().GetValue()
			}
		}
	}
	return out
}
