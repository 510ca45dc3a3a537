package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

func TestServesCompressedWithETag(t *testing.T) {
	wasm := bytes.Repeat([]byte("\x00asm-like bytes "), 5000)
	s, err := New([]byte("<html>page</html>"), []byte("// exec"), wasm)
	if err != nil {
		t.Fatal(err)
	}
	raw, gz := s.Sizes()
	if raw != len(wasm) || gz >= raw/10 {
		t.Fatalf("sizes raw %d gz %d", raw, gz)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()

	req, _ := http.NewRequest("GET", srv.URL+"/game.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	resp, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	h := resp.Header
	if resp.StatusCode != 200 || h.Get("Content-Encoding") != "gzip" || h.Get("Content-Type") != "application/wasm" ||
		h.Get("Vary") != "Accept-Encoding" || h.Get("ETag") == "" || h.Get("X-Uncompressed-Length") != "80000" {
		t.Fatalf("status %d headers %v", resp.StatusCode, h)
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !bytes.Equal(plain, wasm) {
		t.Fatal("decompressed body differs")
	}

	// Revalidation costs a 304.
	req, _ = http.NewRequest("GET", srv.URL+"/game.wasm", nil)
	req.Header.Set("If-None-Match", h.Get("ETag"))
	resp, err = http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d", resp.StatusCode)
	}

	// A client without gzip gets the raw bytes; the page is at /.
	req, _ = http.NewRequest("GET", srv.URL+"/", nil)
	resp, err = http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "<html>page</html>" || resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("page: %q %v", body, resp.Header)
	}
	for path, want := range map[string]int{"/nothing": 404, "/wasm_exec.js": 200} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s: %d, want %d", path, resp.StatusCode, want)
		}
	}
	resp, _ = http.Post(srv.URL+"/", "text/plain", nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", resp.StatusCode)
	}
}

func TestAcceptsGzip(t *testing.T) {
	for v, want := range map[string]bool{"gzip": true, "br, gzip": true, "gzip;q=0": false, "gzip;q=0.5": true, "identity": false, "": false, "*": true} {
		if got := acceptsGzip(v); got != want {
			t.Errorf("%q: %v", v, got)
		}
	}
}

// Every method of the signalling path reaches the signalling endpoint and
// every other path the site, so a wrong method is answered by the product
// itself: 405 with the body "method not allowed" (docs/PROTOCOL.md §1),
// not the mux's own wording.
func TestMountAnswersWrongMethods(t *testing.T) {
	rtc, err := webrtc.NewServer(webrtc.ServerConfig{UDPHost: "127.0.0.1", IncludeLoopback: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer rtc.Close()
	site, err := New([]byte("<html>page</html>"), []byte("// exec"), []byte("\x00asm"))
	if err != nil {
		t.Fatal(err)
	}
	type call struct {
		method, path string
		code         int
		body, allow  string
	}
	signalling := []call{
		{"GET", "/signal", 405, "method not allowed\n", "POST"},
		{"HEAD", "/signal", 405, "method not allowed\n", "POST"}, // a server drops the body of a HEAD answer
		{"PUT", "/signal", 405, "method not allowed\n", "POST"},
		{"DELETE", "/signal", 405, "method not allowed\n", "POST"},
		{"POST", "/signal", 400, "not an offer\n", ""},
		{"GET", "/healthz", 200, "ok\n", ""},
	}
	for _, tc := range []struct {
		name  string
		site  *Site
		calls []call
	}{
		{"no site", nil, signalling},
		{"site", site, append(signalling[:len(signalling):len(signalling)],
			call{"GET", "/", 200, "<html>page</html>", ""},
			call{"POST", "/", 405, "method not allowed\n", "GET, HEAD"},
			call{"PUT", "/wasm_exec.js", 405, "method not allowed\n", "GET, HEAD"},
		)},
	} {
		mux := http.NewServeMux()
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
		Mount(mux, "/signal", rtc, tc.site)
		for _, c := range tc.calls {
			req := httptest.NewRequest(c.method, c.path, strings.NewReader(`{"type":"answer","sdp":"","version":2}`))
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, req)
			if rec.Code != c.code || rec.Body.String() != c.body || rec.Header().Get("Allow") != c.allow {
				t.Errorf("%s, %s %s: %d %q Allow %q; want %d %q Allow %q", tc.name, c.method, c.path,
					rec.Code, rec.Body, rec.Header().Get("Allow"), c.code, c.body, c.allow)
			}
		}
	}
}
