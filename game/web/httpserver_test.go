package web

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A keep-alive connection idle past IdleTimeout, and one that trickles
// its request past ReadTimeout, are closed by the server (here with the
// timeouts shortened; the real ones are a minute and 20 s).
func TestHTTPServerClosesIdleConnections(t *testing.T) {
	srv := NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }), nil)
	if srv.IdleTimeout != IdleTimeout || srv.ReadTimeout != ReadTimeout || srv.WriteTimeout != WriteTimeout ||
		srv.ReadHeaderTimeout != ReadHeaderTimeout || srv.MaxHeaderBytes != MaxHeaderBytes {
		t.Fatalf("server %+v lacks the timeouts", srv)
	}
	srv.IdleTimeout, srv.ReadTimeout, srv.ReadHeaderTimeout = 200*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()

	closedWithin := func(c net.Conn, limit time.Duration) bool {
		c.SetReadDeadline(time.Now().Add(limit))
		_, err := io.Copy(io.Discard, c) // reads until the server closes
		return err == nil
	}
	// Idle after a request.
	idle, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	io.WriteString(idle, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("first request: %v", err)
	}
	resp.Body.Close()
	if !closedWithin(idle, 2*time.Second) {
		t.Error("an idle keep-alive connection was still open 2 s after a 200 ms IdleTimeout")
	}
	// A request trickled a byte at a time.
	slow, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	go func() {
		for _, b := range []byte(strings.Repeat("X-Pad: y\r\n", 100)) {
			if _, err := slow.Write([]byte{b}); err != nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	io.WriteString(slow, "POST / HTTP/1.1\r\nHost: x\r\n")
	if !closedWithin(slow, 3*time.Second) {
		t.Error("a trickled request was still open 3 s after a 300 ms ReadTimeout")
	}
}
