package relay

import (
	"bytes"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pion/stun/v4"
	"github.com/pion/turn/v5"

	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/iceservers"
)

// dialFrom connects to addr over TCP from the loopback address from.
func dialFrom(t testing.TB, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// refused says whether a connection from from to addr is closed at once
// (nil), its connect reset or closed once made, or else an error.
func refused(from, addr string) error {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if errors.Is(err, syscall.ECONNRESET) {
		return nil
	}
	if err != nil {
		return err
	}
	defer c.Close()
	if err := closedWithin(c, hangGuard); err != nil {
		return fmt.Errorf("not closed: %w", err)
	}
	return nil
}

// bindingRequest is a STUN Binding request, which the relay answers
// without a credential.
func bindingRequest(t testing.TB) []byte {
	t.Helper()
	m, err := stun.Build(stun.TransactionID, stun.BindingRequest)
	if err != nil {
		t.Fatal(err)
	}
	return m.Raw
}

// hangGuard bounds each wait for what must come (an answer, a close): a
// busy machine only delays it, so the guard is far beyond any delay and
// only a relay that never answers or never closes reaches it.
const hangGuard = 2 * time.Minute

// readBinding reads a STUN message off c (a Binding response).
func readBinding(c net.Conn, within time.Duration) error {
	c.SetReadDeadline(time.Now().Add(within))
	defer c.SetReadDeadline(time.Time{})
	var hdr [stunHeaderLen]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return err
	}
	_, err := io.CopyN(io.Discard, c, int64(binary.BigEndian.Uint16(hdr[2:4])))
	return err
}

// closedWithin says whether the relay closed c within d (nil), or c
// still stands (an error).
func closedWithin(c net.Conn, d time.Duration) error {
	c.SetReadDeadline(time.Now().Add(d))
	buf := make([]byte, 4096)
	for {
		_, err := c.Read(buf)
		if err == nil {
			continue
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return err
		}
		return nil // EOF or reset
	}
}

// alive says whether the relay still answers on c.
func alive(t *testing.T, c net.Conn) bool {
	t.Helper()
	if _, err := c.Write(bindingRequest(t)); err != nil {
		return false
	}
	return readBinding(c, hangGuard) == nil
}

func TestConnectionCaps(t *testing.T) {
	s := startRelay(t, newSecret(t), func(c *Config) {
		c.MaxConnsPerAddr = 2
		c.MaxConns = 3
	})
	addr := s.TCPAddr().String()
	a1 := dialFrom(t, "127.0.0.1", addr)
	a2 := dialFrom(t, "127.0.0.1", addr)
	if !alive(t, a1) || !alive(t, a2) {
		t.Fatal("the first two connections from 127.0.0.1 are not served")
	}
	if err := refused("127.0.0.1", addr); err != nil {
		t.Errorf("a third connection from 127.0.0.1: %v", err)
	}
	b1 := dialFrom(t, "127.0.0.2", addr)
	if !alive(t, b1) {
		t.Fatal("a connection from 127.0.0.2 is not served")
	}
	if err := refused("127.0.0.3", addr); err != nil {
		t.Errorf("a fourth connection in all: %v", err)
	}
	st := s.Stats()
	if st.RefusedTCPPerAddr != 1 || st.RefusedTCPTotal != 1 || st.TCPConns != 3 {
		t.Errorf("Stats = %+v; want 1 refused per address, 1 in all, 3 open", st)
	}
	m := gather(t, s)
	if m[`sightline_relay_refused_total{reason="tcp-per-address"}`] != 1 || m[`sightline_relay_refused_total{reason="tcp-total"}`] != 1 {
		t.Errorf("metrics = %v", m)
	}

	// A closed connection gives its place back.
	a1.Close()
	waitFor(t, "the closed connection released", func() bool { return s.Stats().TCPConns == 2 })
	if a4 := dialFrom(t, "127.0.0.1", addr); !alive(t, a4) {
		t.Error("a connection from 127.0.0.1 after one closed is not served")
	}
}

func TestClientKey(t *testing.T) {
	for _, tt := range []struct{ addr, key string }{
		{"192.0.2.7:3478", "192.0.2.7"},
		{"[::ffff:192.0.2.7]:3478", "192.0.2.7"},
		{"[2001:db8:1:2:3:4:5:6]:3478", "2001:db8:1:2::"},
		{"[2001:db8:1:2:ffff::1]:9", "2001:db8:1:2::"},
	} {
		ap := netip.MustParseAddrPort(tt.addr)
		if got := clientKey(net.TCPAddrFromAddrPort(ap)); got.String() != tt.key {
			t.Errorf("clientKey(%s) = %s, want %s", tt.addr, got, tt.key)
		}
	}
}

// stunHeader is a STUN message header announcing length bytes after it.
func stunHeader(length uint16) []byte {
	m := stun.New()
	m.Type = stun.BindingRequest
	m.NewTransactionID()
	m.WriteHeader()
	h := append([]byte(nil), m.Raw[:stunHeaderLen]...)
	binary.BigEndian.PutUint16(h[2:4], length)
	return h
}

func TestOversizeFrameClosed(t *testing.T) {
	s := startRelay(t, newSecret(t), nil)
	c := dialFrom(t, "127.0.0.1", s.TCPAddr().String())
	// A message of 64 KiB announced, 1 KiB of it sent: the relay would
	// wait, holding the rest, for the other 63.
	if _, err := c.Write(append(stunHeader(0xFFFC), make([]byte, 1024)...)); err != nil {
		t.Fatal(err)
	}
	if err := closedWithin(c, hangGuard); err != nil {
		t.Fatalf("a connection announcing a 64 KiB message is not closed: %v", err)
	}
	waitFor(t, "counted", func() bool { return s.Stats().ClosedOversize == 1 })

	// The largest message allowed passes, whole, split and with another.
	ok := dialFrom(t, "127.0.0.1", s.TCPAddr().String())
	big := append(stunHeader(DefaultMaxFrame-stunHeaderLen), make([]byte, DefaultMaxFrame-stunHeaderLen)...)
	ok.Write(big[:3])
	time.Sleep(20 * time.Millisecond)
	ok.Write(big[3:700])
	time.Sleep(20 * time.Millisecond)
	ok.Write(append(big[700:], bindingRequest(t)...))
	if err := readBinding(ok, hangGuard); err != nil {
		t.Errorf("no answer after a message of MaxFrame bytes: %v", err)
	}
	if st := s.Stats(); st.ClosedOversize != 1 || st.ClosedBadFrame != 0 {
		t.Errorf("Stats = %+v; want 1 oversize and no bad frame", st)
	}

	bad := dialFrom(t, "127.0.0.1", s.TCPAddr().String())
	bad.Write([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
	if err := closedWithin(bad, hangGuard); err != nil {
		t.Errorf("a connection sending neither STUN nor ChannelData is not closed: %v", err)
	}
	waitFor(t, "counted", func() bool { return s.Stats().ClosedBadFrame == 1 })
}

func TestFrameSize(t *testing.T) {
	for _, tt := range []struct {
		hdr  [4]byte
		size int
		err  error
	}{
		{[4]byte{0x00, 0x01, 0x00, 0x00}, 20, nil},
		{[4]byte{0x00, 0x01, 0x05, 0xC8}, 1500, nil},
		{[4]byte{0x00, 0x01, 0x06, 0x2C}, 1600, nil},
		{[4]byte{0x00, 0x01, 0x06, 0x30}, 0, ErrOversizeFrame},
		{[4]byte{0x40, 0x00, 0x00, 0x00}, 4, nil},
		{[4]byte{0x40, 0x00, 0x00, 0x05}, 12, nil},
		{[4]byte{0x7F, 0xFF, 0x06, 0x3C}, 1600, nil},
		{[4]byte{0x7F, 0xFF, 0x06, 0x3D}, 0, ErrOversizeFrame},
		{[4]byte{0x80, 0x00, 0x00, 0x00}, 0, ErrBadFrame},
		{[4]byte{0xC0, 0x00, 0x00, 0x00}, 0, ErrBadFrame},
		// HTTP's "GET " reads as ChannelData on channel 0x4745, of 21,536 bytes.
		{[4]byte{'G', 'E', 'T', ' '}, 0, ErrOversizeFrame},
	} {
		size, err := frameSize(tt.hdr, DefaultMaxFrame)
		if size != tt.size || !errors.Is(err, tt.err) {
			t.Errorf("frameSize(% x) = %d, %v; want %d, %v", tt.hdr, size, err, tt.size, tt.err)
		}
	}
}

func TestIdleTimeouts(t *testing.T) {
	s := startRelay(t, newSecret(t), func(c *Config) {
		// Far longer than the talker's gaps below, so that a machine with
		// both cores busy, stretching them, does not close it.
		c.IdleTimeout = 3 * time.Second
		c.FirstMessageTimeout = time.Second
	})
	addr := s.TCPAddr().String()
	silent := dialFrom(t, "127.0.0.1", addr)
	dribble := dialFrom(t, "127.0.0.1", addr)
	talker := dialFrom(t, "127.0.0.1", addr)
	start := time.Now()
	if !alive(t, talker) {
		t.Fatal("the talker's first message is not answered")
	}
	// The dribbler sends a byte of a message every 100 ms: bytes without a
	// complete message keep nothing open.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		b := bindingRequest(t)
		for i := 0; i < len(b)-1; i++ {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			dribble.Write(b[i : i+1])
		}
	}()
	if err := closedWithin(silent, hangGuard); err != nil {
		t.Fatalf("a silent connection is not closed: %v", err)
	}
	if d := time.Since(start); d < 900*time.Millisecond {
		t.Errorf("a silent connection closed after %v, before FirstMessageTimeout", d)
	}
	if err := closedWithin(dribble, hangGuard); err != nil {
		t.Fatalf("a connection dribbling bytes is not closed: %v", err)
	}
	// The talker sends a message every 300 ms, a tenth of its IdleTimeout
	// (it has been sending since the start).
	for i := 0; i < 5; i++ {
		if !alive(t, talker) {
			t.Fatalf("a connection sending every 300 ms closed after %v", time.Since(start))
		}
		time.Sleep(300 * time.Millisecond)
	}
	if err := closedWithin(talker, hangGuard); err != nil {
		t.Fatalf("the talker is not closed once silent: %v", err)
	}
	if st := s.Stats(); st.ClosedIdle != 3 || st.TCPConns != 0 {
		t.Errorf("Stats = %+v; want 3 closed idle, none open", st)
	}
}

// TestClientNotReadingClosed: a client that sends requests and never
// reads the answers is closed once the relay's writes wait IdleTimeout.
// How soon depends on how fast a loaded machine fills the buffers between
// the two, so the test waits on the relay's own count, not on a clock.
func TestClientNotReadingClosed(t *testing.T) {
	s := startRelay(t, newSecret(t), func(c *Config) { c.IdleTimeout = 500 * time.Millisecond })
	c := dialFrom(t, "127.0.0.1", s.TCPAddr().String()).(*net.TCPConn)
	c.SetReadBuffer(4096)
	req := bytes.Repeat(bindingRequest(t), 1000)
	wrote := make(chan error, 1)
	go func() {
		for {
			if _, err := c.Write(req); err != nil {
				wrote <- err
				return
			}
		}
	}()
	defer func() { c.Close(); <-wrote }()
	waitWithin(t, time.Minute, "the relay closes the connection it cannot write to", func() bool {
		st := s.Stats()
		return st.ClosedIdle == 1 && st.TCPConns == 0
	})
	// The client, reading at last, finds the connection's end.
	if err := closedWithin(c, hangGuard); err != nil {
		t.Fatalf("the relay counted the connection closed, but the client reads on: %v", err)
	}
}

// TestTLSFramed: over TLS the guard frames the TURN stream inside TLS, and
// the relay still allocates.
func TestTLSFramed(t *testing.T) {
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
		c.FirstMessageTimeout = 500 * time.Millisecond
	})
	dial := func() *tls.Conn {
		c, err := tls.Dial("tcp", s.TLSAddr().String(), &tls.Config{RootCAs: cert.Pool, ServerName: "localhost"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	big := dial()
	big.Write(stunHeader(0xFFFC))
	if err := closedWithin(big, hangGuard); err != nil {
		t.Fatalf("a TLS connection announcing a 64 KiB message is not closed: %v", err)
	}
	waitFor(t, "counted", func() bool { return s.Stats().ClosedOversize == 1 })

	// A TCP connection that never starts TLS is closed by the first
	// message's timeout.
	raw := dialFrom(t, "127.0.0.1", s.TLSAddr().String())
	if err := closedWithin(raw, hangGuard); err != nil {
		t.Fatalf("a connection without a TLS handshake is not closed: %v", err)
	}

	peer := startEcho(t)
	cred := iceservers.Mint(secret, "player-1", time.Now(), time.Minute)
	c := startClient(t, turn.NewSTUNConn(dial()), s.TLSAddr().String(), cred.Username, cred.Password)
	relayed, err := c.Allocate()
	if err != nil {
		t.Fatalf("Allocate over TLS: %v", err)
	}
	defer relayed.Close()
	roundTrip(t, relayed, peer.conn.LocalAddr(), []byte("over tls"))
}

// failingListener fails its first n Accepts with err.
type failingListener struct {
	net.Listener
	n   atomic.Int64
	err error
}

func (l *failingListener) Accept() (net.Conn, error) {
	if l.n.Add(-1) >= 0 {
		return nil, l.err
	}
	return l.Listener.Accept()
}

func TestAcceptRidesOutErrors(t *testing.T) {
	secret := newSecret(t)
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fl := &failingListener{Listener: tcp, err: &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}}
	fl.n.Store(8)
	s := startRelay(t, secret, func(c *Config) {
		c.Addr = ""
		c.Listener = fl
	})
	// Eight failures back off 5+10+...+640 ms, about 1.3 s.
	c := dialFrom(t, "127.0.0.1", s.TCPAddr().String())
	if !alive(t, c) {
		// alive waits 2 s; give the backoff its full length, however
		// slowly a busy machine runs it.
		if readBinding(c, hangGuard) != nil {
			t.Fatal("no answer after the listener failed 8 times")
		}
	}
	if st := s.Stats(); st.AcceptErrors != 8 {
		t.Errorf("AcceptErrors = %d, want 8", st.AcceptErrors)
	}

	// Close ends the accept loop even while it backs off.
	fl.n.Store(1 << 20)
	c2 := dialFrom(t, "127.0.0.1", s.TCPAddr().String())
	_ = c2
	time.Sleep(50 * time.Millisecond)
	done := make(chan struct{})
	go func() {
		s.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("Close hangs while Accept backs off")
	}
}

// TestIdleConnectionsClosed opens 5,000 TCP connections to a relay child,
// each sending one Binding request and then nothing: all are closed
// within IdleTimeout, and the relay's memory grows by less than 20 MB
// while they are open.
func TestIdleConnectionsClosed(t *testing.T) {
	if testing.Short() {
		t.Skip("5,000 connections")
	}
	const conns = 5000
	// Long enough that opening them all fits in it on a machine with both
	// cores busy (3.5 s under the race detector with the suite beside it),
	// so that all are open at once when their cost is measured.
	const idle = 10 * time.Second
	child := startChild(t, childConfig{
		MaxConnsPerAddr:     conns,
		MaxConns:            conns,
		IdleTimeout:         idle,
		FirstMessageTimeout: idle,
	})
	before := child.report(t)
	rssBefore := child.rss(t)
	req := bindingRequest(t)

	all := make([]net.Conn, conns)
	var wg sync.WaitGroup
	errs := make(chan error, conns)
	start := time.Now()
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < conns; i += 16 {
				c, err := net.DialTimeout("tcp", child.first.TCP, hangGuard)
				if err != nil {
					errs <- err
					return
				}
				all[i] = c
				if _, err := c.Write(req); err != nil {
					errs <- err
					return
				}
				if err := readBinding(c, hangGuard); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	lastAnswer := time.Now()
	t.Cleanup(func() {
		for _, c := range all {
			if c != nil {
				c.Close()
			}
		}
	})
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	during := child.report(t)
	rssDuring := child.rss(t)
	t.Logf("opened %d connections in %v; relay child heap in use %.1f -> %.1f MB, stacks %.1f -> %.1f MB, RSS %.1f -> %.1f MB; %d open",
		conns, lastAnswer.Sub(start), mb(before.HeapInuse), mb(during.HeapInuse), mb(before.StackInuse), mb(during.StackInuse),
		mb(uint64(rssBefore)), mb(uint64(rssDuring)), during.Stats.TCPConns)
	if during.Stats.TCPConns != conns {
		t.Fatalf("%d connections open at the relay, want %d (opening them took longer than IdleTimeout?)", during.Stats.TCPConns, conns)
	}
	// The heap is what the relay keeps per connection (the TURN library's
	// 1,600-byte read buffer most of it); the RSS adds the library's
	// goroutine per connection, whose stack MaxConns bounds.
	if grown := int64(during.HeapInuse) - int64(before.HeapInuse); grown >= 20<<20 {
		t.Errorf("relay heap in use grew %.1f MB with %d idle connections open, want < 20", mb(uint64(grown)), conns)
	}

	// Closed within the idle timeout of their last message, with a margin
	// for a busy machine to close 5,000 connections and report it.
	deadline := lastAnswer.Add(idle + 5*time.Second)
	for {
		r := child.report(t)
		if r.Stats.TCPConns == 0 {
			if r.Stats.ClosedIdle != conns {
				t.Errorf("ClosedIdle = %d, want %d", r.Stats.ClosedIdle, conns)
			}
			t.Logf("all closed %v after the last answer", time.Since(lastAnswer).Round(time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d connections still open %v after the last was answered (IdleTimeout %v)",
				r.Stats.TCPConns, conns, time.Since(lastAnswer).Round(time.Millisecond), idle)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The clients see their connections closed.
	for i, c := range all {
		if err := closedWithin(c, hangGuard); err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
	}
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// TestAllocatesAfterEMFILE runs a relay child allowed 48 open files, opens
// connections until its Accept fails with EMFILE, closes them, and
// allocates over TCP: the relay accepts again without a restart.
func TestAllocatesAfterEMFILE(t *testing.T) {
	child := startChild(t, childConfig{NoFile: 48, MaxConnsPerAddr: 1000, MaxConns: 1000})
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for i := 0; ; i++ {
		if i == 200 {
			t.Fatalf("no EMFILE after %d connections: %+v", i, child.report(t).Stats)
		}
		c, err := net.DialTimeout("tcp", child.first.TCP, hangGuard)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		if i%8 == 7 {
			time.Sleep(20 * time.Millisecond)
			// Out of files: a failed Accept, or connections the relay
			// no longer takes from the kernel's queue.
			if st := child.report(t).Stats; st.AcceptErrors > 0 || int64(len(held))-st.TCPConns >= 16 {
				break
			}
		}
	}
	r := child.report(t)
	t.Logf("EMFILE after %d connections: %d accepted, %d failed accepts", len(held), r.Stats.TCPConns, r.Stats.AcceptErrors)
	for _, c := range held {
		c.Close()
	}
	held = nil

	tcp, err := net.DialTimeout("tcp", child.first.TCP, hangGuard)
	if err != nil {
		t.Fatal(err)
	}
	cred := iceservers.Mint(child.secret, "player-1", time.Now(), time.Minute)
	c := startClient(t, turn.NewSTUNConn(tcp), child.first.TCP, cred.Username, cred.Password)
	relayed, err := c.Allocate()
	if err != nil {
		t.Fatalf("Allocate over TCP after EMFILE: %v", err)
	}
	relayed.Close()
	if r := child.report(t); r.Stats.AllocationsTotal != 1 {
		t.Errorf("AllocationsTotal = %d, want 1", r.Stats.AllocationsTotal)
	}
}
