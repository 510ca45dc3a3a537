package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
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
