package web

import (
	"bufio"
	tlspkg "crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
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

	// closedWithin reads until the server closes c: an end of file, or a
	// reset when it closed with bytes of ours unread (a trickled request's).
	// Only the read deadline says that c was still open.
	closedWithin := func(c net.Conn, limit time.Duration) bool {
		c.SetReadDeadline(time.Now().Add(limit))
		_, err := io.Copy(io.Discard, c)
		var ne net.Error
		return !errors.As(err, &ne) || !ne.Timeout()
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
	// The close must come: 2 minutes is a hang guard, not a bound on it.
	if !closedWithin(idle, 2*time.Minute) {
		t.Error("an idle keep-alive connection was still open 2 minutes after a 200 ms IdleTimeout")
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
	if !closedWithin(slow, 2*time.Minute) {
		t.Error("a trickled request was still open 2 minutes after a 300 ms ReadTimeout")
	}
}

func TestSecureHeaders(t *testing.T) {
	h := SecureHeaders(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "page") }))
	for _, tls := range []bool{false, true} {
		r := httptest.NewRequest("GET", "/?token=secret", nil)
		if tls {
			r.TLS = &tlspkg.ConnectionState{}
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Header().Get("Referrer-Policy") != "no-referrer" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("tls %v: headers %v", tls, rec.Header())
		}
		if got := rec.Header().Get("Strict-Transport-Security"); (got != "") != tls || (tls && got != "max-age=15552000") {
			t.Errorf("tls %v: Strict-Transport-Security %q", tls, got)
		}
	}
}

// A client that offers only CBC suites under TLS 1.2, or TLS 1.1, does not
// get a connection; one that offers an AEAD suite does.
func TestTLSConfigRefusesCBC(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }))
	srv.TLS = TLSConfig()
	srv.StartTLS()
	defer srv.Close()
	dial := func(cfg *tlspkg.Config) error {
		cfg.InsecureSkipVerify = true
		c, err := tlspkg.Dial("tcp", srv.Listener.Addr().String(), cfg)
		if err == nil {
			c.Close()
		}
		return err
	}
	if err := dial(&tlspkg.Config{MaxVersion: tlspkg.VersionTLS12, CipherSuites: []uint16{tlspkg.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, tlspkg.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA}}); err == nil {
		t.Error("a CBC-only client got a TLS 1.2 connection")
	}
	if err := dial(&tlspkg.Config{MinVersion: tlspkg.VersionTLS11, MaxVersion: tlspkg.VersionTLS11}); err == nil {
		t.Error("a TLS 1.1 client got a connection")
	}
	if err := dial(&tlspkg.Config{MaxVersion: tlspkg.VersionTLS12, CipherSuites: []uint16{tlspkg.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}}); err != nil {
		t.Errorf("an AEAD TLS 1.2 client: %v", err)
	}
	if err := dial(&tlspkg.Config{MinVersion: tlspkg.VersionTLS13}); err != nil {
		t.Errorf("a TLS 1.3 client: %v", err)
	}
}
