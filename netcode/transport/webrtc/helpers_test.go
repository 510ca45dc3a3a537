//go:build !js

package webrtc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"log/slog"
	"net"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/netcode/transport"
	"go.uber.org/goleak"
	"golang.org/x/time/rate"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// logBuffer collects log output for assertions and, at -v, echoes it to
// the test log until the test ends (pion may log from goroutines that
// outlive a failed test by a moment).
type logBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	t    testing.TB
	done bool
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	if !l.done && testing.Verbose() {
		l.t.Logf("%s", bytes.TrimRight(p, "\n"))
	}
	return len(p), nil
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func newLog(t testing.TB, name string) (*slog.Logger, *logBuffer) {
	lb := &logBuffer{t: t}
	t.Cleanup(func() {
		lb.mu.Lock()
		lb.done = true
		lb.mu.Unlock()
	})
	return slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug})).With("side", name), lb
}

// loopbackOnly narrows a native peer to IPv4 loopback candidates.
func loopbackOnly(se *webrtc.SettingEngine) {
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() })
}

type testServer struct {
	*Server
	url  string
	http *httptest.Server
	logs *logBuffer
}

// testVersion is the version of the made-up application protocol the
// tests' servers speak and their clients offer.
const testVersion = 5

// newTestServer starts a server on 127.0.0.1 and an HTTP endpoint for it.
// Both are closed when the test ends.
func newTestServer(t testing.TB, cfg ServerConfig) *testServer {
	t.Helper()
	log, lb := newLog(t, "server")
	cfg.Logger = log
	if cfg.Version == 0 {
		cfg.Version = testVersion
	}
	if cfg.OfferRate == 0 {
		// Tests post many offers from 127.0.0.1; TestSignallingAbuse sets
		// its own limit.
		cfg.OfferRate = rate.Inf
	}
	if cfg.PacketConn == nil {
		cfg.UDPHost = "127.0.0.1"
		cfg.IncludeLoopback = true
	}
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		hs.Close()
		if err := s.Close(); err != nil {
			t.Errorf("server Close: %v", err)
		}
	})
	return &testServer{Server: s, url: hs.URL + "/signal", http: hs, logs: lb}
}

func (ts *testServer) dialConfig(t testing.TB, name string) DialConfig {
	log, _ := newLog(t, name)
	return DialConfig{
		Version:         testVersion,
		HTTPClient:      ts.http.Client(),
		Logger:          log,
		IncludeLoopback: true,
		SettingEngine:   loopbackOnly,
	}
}

// dial connects a client and closes it when the test ends.
func (ts *testServer) dial(t testing.TB, name string, cfg DialConfig) transport.Conn {
	t.Helper()
	if cfg.Version == 0 {
		cfg.Version = testVersion
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	c, err := Dial(ctx, ts.url, cfg)
	if err != nil {
		t.Fatalf("Dial %s: %v", name, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// accept waits for one connection.
func (ts *testServer) accept(t testing.TB) transport.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	c, err := ts.Accept(ctx)
	if err != nil {
		t.Fatalf("Accept: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// message returns a message of size bytes (at least 8) carrying tag and seq.
func message(tag, seq uint32, size int) []byte {
	p := make([]byte, max(size, 8))
	binary.BigEndian.PutUint32(p, tag)
	binary.BigEndian.PutUint32(p[4:], seq)
	for i := 8; i < len(p); i++ {
		p[i] = byte(seq + uint32(i))
	}
	return p
}

func parse(p []byte) (tag, seq uint32, ok bool) {
	if len(p) < 8 {
		return 0, 0, false
	}
	tag, seq = binary.BigEndian.Uint32(p), binary.BigEndian.Uint32(p[4:])
	for i := 8; i < len(p); i++ {
		if p[i] != byte(seq+uint32(i)) {
			return tag, seq, false
		}
	}
	return tag, seq, true
}

// sendPaced sends p, waiting while the channel is congested, until ctx ends.
func sendPaced(ctx context.Context, c transport.Conn, ch transport.Channel, p []byte) error {
	for {
		err := c.Send(ch, p)
		if !errors.Is(err, transport.ErrCongested) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
}

// waitDone waits for c to end and returns how long it took.
func waitDone(t testing.TB, c transport.Conn, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	select {
	case <-c.Done():
		return time.Since(start)
	case <-time.After(limit):
		t.Fatalf("Done did not fire within %v", limit)
		return 0
	}
}
