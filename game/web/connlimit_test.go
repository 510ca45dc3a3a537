package web_test

import (
	"io"
	"net"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/web"
)

// serveLimited serves a trivial handler through LimitConns on loopback.
func serveLimited(t *testing.T, perSubscriber, total int) (*web.ConnLimiter, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lim := web.LimitConns(ln, perSubscriber, total)
	srv := web.NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }), nil)
	go srv.Serve(lim)
	t.Cleanup(func() { srv.Close() })
	return lim, ln.Addr().String()
}

// dialFrom opens a TCP connection to addr from the loopback address from.
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedByServer reports whether the server closed c (a read ends with EOF
// or a reset) rather than keeping it open. The close is awaited up to a
// hang guard of 2 minutes: a busy machine may take long to accept and close
// a connection, and only one the server keeps open reaches the guard.
func closedByServer(c net.Conn) bool {
	c.SetReadDeadline(time.Now().Add(2 * time.Minute))
	_, err := c.Read(make([]byte, 1))
	ne, timeout := err.(net.Error)
	return err != nil && !(timeout && ne.Timeout())
}

func waitOpen(t *testing.T, lim *web.ConnLimiter, want int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for lim.Open() != want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := lim.Open(); got != want {
		t.Fatalf("%d connections open, want %d", got, want)
	}
}

// One address holds at most its share of connections; another address has
// its own; a closed connection gives its place back; the total is bounded.
func TestLimitConnsPerSubscriberAndInAll(t *testing.T) {
	lim, addr := serveLimited(t, 4, 6)
	var first []net.Conn
	for range 4 {
		first = append(first, dialFrom(t, "127.0.0.1", addr))
	}
	waitOpen(t, lim, 4)
	if c := dialFrom(t, "127.0.0.1", addr); !closedByServer(c) {
		t.Fatal("a fifth connection from one address was kept open")
	}
	// Another address (all of 127/8 is loopback here) has its own share,
	// up to the total of 6.
	dialFrom(t, "127.0.0.2", addr)
	dialFrom(t, "127.0.0.2", addr)
	waitOpen(t, lim, 6)
	if c := dialFrom(t, "127.0.0.3", addr); !closedByServer(c) {
		t.Fatal("a connection beyond the total was kept open")
	}
	if lim.Refused() != 2 {
		t.Fatalf("refused %d, want 2", lim.Refused())
	}
	// A connection the client closes gives its place back; the one after
	// it is served.
	first[0].Close()
	waitOpen(t, lim, 5)
	c := dialFrom(t, "127.0.0.1", addr)
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(2 * time.Minute))
	buf := make([]byte, 256)
	if n, err := c.Read(buf); err != nil || n == 0 {
		t.Fatalf("a connection within the bound got no answer: %v", err)
	}
}

// A crowd of idle connections from one address costs the server a bounded
// amount of memory while open (all but its share are closed at accept), and
// those it keeps are closed when they have sent no request within
// ReadHeaderTimeout.
func TestIdleConnectionsBoundedAndClosed(t *testing.T) {
	lim, addr := serveLimited(t, 0, 0)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 2000
	conns := make([]net.Conn, 0, n)
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	waitOpen(t, lim, web.MaxConnsPerSubscriber)
	var during runtime.MemStats
	runtime.ReadMemStats(&during)
	// The test's own side of the connections is in the same process: about
	// 1 KB each here, and the server's kept ones about 20 KB.
	used := int64(during.HeapInuse+during.StackInuse) - int64(before.HeapInuse+before.StackInuse)
	t.Logf("%d idle connections: %d open, %d refused, %.1f MB more in use", n, lim.Open(), lim.Refused(), float64(used)/(1<<20))
	if used > 8<<20 {
		t.Errorf("%d idle connections cost %.1f MB, want under 8", n, float64(used)/(1<<20))
	}
	deadline := time.Now().Add(web.ReadHeaderTimeout + 3*time.Second)
	for lim.Open() != 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if lim.Open() != 0 {
		t.Fatalf("%d idle connections still open %v after they opened", lim.Open(), web.ReadHeaderTimeout+3*time.Second)
	}
}
