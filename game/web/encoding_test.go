package web

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// testFiles are a page, a script and a "wasm" compressible like the real
// one: repeated runs with noise.
func testFiles() (index, exec, wasm []byte) {
	rng := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for b.Len() < 60_000 {
		fmt.Fprintf(&b, "\x00asm func %d local.get %d i32.add ", rng.IntN(500), rng.IntN(40))
	}
	return []byte("<!doctype html><title>page</title>" + strings.Repeat("<p>text</p>", 50)),
		[]byte("// exec\n" + strings.Repeat("globalThis.Go = class {};\n", 40)), b.Bytes()
}

// writeBuild writes a web directory as `make web` does, precompressed.
func writeBuild(t *testing.T, exec, wasm []byte, encs ...Encoding) string {
	t.Helper()
	dir := t.TempDir()
	for name, raw := range map[string][]byte{ExecFile: exec, WasmFile: wasm} {
		if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, e := range encs {
			b, err := compressed(e, raw)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name+e.Suffix()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// get asks the site for path without any transparent decompression.
func get(t *testing.T, base, method, path string, header http.Header) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	// DisableCompression: the transport neither adds an Accept-Encoding of
	// its own nor unpacks the body.
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// Every file, for every Accept-Encoding, comes in the right encoding with
// the headers a browser needs, and decompresses to the file.
func TestServesEachEncoding(t *testing.T) {
	index, exec, wasm := testFiles()
	site, err := Load(writeBuild(t, exec, wasm, Brotli, Gzip))
	if err != nil {
		t.Fatal(err)
	}
	// The page served is the embedded one; the test's page goes through New.
	srv := httptest.NewServer(site)
	defer srv.Close()
	newSite, err := New(index, exec, wasm)
	if err != nil {
		t.Fatal(err)
	}
	fresh := httptest.NewServer(newSite)
	defer fresh.Close()

	files := []struct {
		path, contentType string
		raw               []byte
		base              string
		brotli            bool // served in brotli
	}{
		{"/game.wasm", "application/wasm", wasm, srv.URL, true},
		{"/wasm_exec.js", "text/javascript; charset=utf-8", exec, srv.URL, true},
		{"/", "text/html; charset=utf-8", index, fresh.URL, true},
		{"/index.html", "text/html; charset=utf-8", index, fresh.URL, true},
		{"/game.wasm", "application/wasm", wasm, fresh.URL, false}, // New compresses gzip only
	}
	cases := []struct {
		accept   []string // nil: no header at all
		want     Encoding
		noBrotli Encoding // what a site without brotli answers
	}{
		{nil, Identity, Identity},
		{[]string{""}, Identity, Identity},
		{[]string{"br"}, Brotli, Identity},
		{[]string{"gzip"}, Gzip, Gzip},
		{[]string{"gzip, deflate, br, zstd"}, Brotli, Gzip}, // Chromium's
		{[]string{"gzip, deflate"}, Gzip, Gzip},
		{[]string{"br;q=0, gzip"}, Gzip, Gzip},
		{[]string{"br; q=0 ,gzip;q=0.5"}, Gzip, Gzip},
		{[]string{"gzip;q=1.0, br;q=0.8"}, Gzip, Gzip},
		{[]string{"br;q=0.8, gzip;q=0.8"}, Brotli, Gzip},
		{[]string{"BR"}, Brotli, Identity},
		{[]string{"x-gzip"}, Gzip, Gzip},
		{[]string{"gzip;q=0, br;q=0"}, Identity, Identity},
		{[]string{"gzip;q=0.001"}, Gzip, Gzip},
		{[]string{"*"}, Brotli, Gzip},
		{[]string{"*;q=0.5, gzip"}, Gzip, Gzip},
		{[]string{"*;q=0"}, Identity, Identity}, // nothing acceptable: the raw bytes, no failure
		{[]string{"identity"}, Identity, Identity},
		{[]string{"identity;q=0, gzip"}, Gzip, Gzip},
		{[]string{"deflate, zstd"}, Identity, Identity},
		{[]string{"gzip;q=2, br;q=nope"}, Identity, Identity}, // malformed weights count for nothing
		{[]string{"br;q=0.5"}, Brotli, Identity},
		{[]string{"gzip", "br"}, Brotli, Gzip}, // two header lines
	}
	for _, f := range files {
		for _, c := range cases {
			name := fmt.Sprintf("%s %s %q", f.base[len(f.base)-5:], f.path, c.accept)
			want := c.want
			if !f.brotli {
				want = c.noBrotli
			}
			header := http.Header{}
			if c.accept != nil {
				header["Accept-Encoding"] = c.accept
			}
			for _, method := range []string{http.MethodGet, http.MethodHead} {
				resp, body := get(t, f.base, method, f.path, header)
				h := resp.Header
				wantCE := want.String()
				if want == Identity {
					wantCE = ""
				}
				if resp.StatusCode != 200 || h.Get("Content-Encoding") != wantCE || h.Get("Content-Type") != f.contentType ||
					h.Get("Vary") != "Accept-Encoding" || h.Get("Cache-Control") != "no-cache" ||
					h.Get(UncompressedLengthHeader) != strconv.Itoa(len(f.raw)) {
					t.Errorf("%s %s: %d, headers %v; want Content-Encoding %q", method, name, resp.StatusCode, h, wantCE)
					continue
				}
				etag := h.Get("ETag")
				if !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) || (want != Identity) != strings.HasSuffix(etag, "-"+want.String()+`"`) {
					t.Errorf("%s %s: ETag %s is not a strong tag of its encoding", method, name, etag)
				}
				if method == http.MethodHead {
					if len(body) != 0 || resp.ContentLength <= 0 {
						t.Errorf("HEAD %s: %d bytes of body, Content-Length %d", name, len(body), resp.ContentLength)
					}
					continue
				}
				if resp.ContentLength != int64(len(body)) {
					t.Errorf("%s: Content-Length %d, body %d bytes", name, resp.ContentLength, len(body))
				}
				r, err := Decompress(want, bytes.NewReader(body))
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				plain, err := io.ReadAll(r)
				if err != nil || !bytes.Equal(plain, f.raw) {
					t.Errorf("%s: the %v body decompresses to %d bytes (%v), not the file's %d", name, want, len(plain), err, len(f.raw))
				}
				if want != Identity && len(body) >= len(f.raw)/2 {
					t.Errorf("%s: %v body of %d bytes for %d raw", name, want, len(body), len(f.raw))
				}
			}
		}
	}
}

// The ETag of each representation revalidates that representation only:
// a reload costs a 304, and a browser now asking for another encoding gets
// the whole body.
func TestRevalidates(t *testing.T) {
	_, exec, wasm := testFiles()
	site, err := Load(writeBuild(t, exec, wasm, Brotli, Gzip))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site)
	defer srv.Close()
	tags := map[Encoding]string{}
	for e, accept := range map[Encoding]string{Brotli: "br, gzip", Gzip: "gzip", Identity: "identity"} {
		resp, _ := get(t, srv.URL, "GET", "/game.wasm", http.Header{"Accept-Encoding": {accept}})
		tags[e] = resp.Header.Get("ETag")
	}
	if tags[Brotli] == tags[Gzip] || tags[Gzip] == tags[Identity] || tags[Brotli] == tags[Identity] {
		t.Fatalf("ETags not distinct per encoding: %v", tags)
	}
	cases := []struct {
		name, accept, ifNoneMatch string
		method                    string
		status                    int
	}{
		{"same tag, brotli", "gzip, deflate, br", tags[Brotli], "GET", 304},
		{"same tag, HEAD", "br", tags[Brotli], "HEAD", 304},
		{"same tag, gzip", "gzip", tags[Gzip], "GET", 304},
		{"same tag, raw", "", tags[Identity], "GET", 304},
		{"weak form of the tag", "br", "W/" + tags[Brotli], "GET", 304},
		{"one of a list", "br", `"old", ` + tags[Brotli], "GET", 304},
		{"any", "br", "*", "GET", 304},
		{"the gzip tag, now asking brotli", "br", tags[Gzip], "GET", 200},
		{"the brotli tag, now without brotli", "gzip", tags[Brotli], "GET", 200},
		{"an old build", "br", `"0123456789abcdef01234567-br"`, "GET", 200},
	}
	for _, c := range cases {
		resp, body := get(t, srv.URL, c.method, "/game.wasm", http.Header{"Accept-Encoding": {c.accept}, "If-None-Match": {c.ifNoneMatch}})
		if resp.StatusCode != c.status {
			t.Errorf("%s: %d, want %d", c.name, resp.StatusCode, c.status)
			continue
		}
		h := resp.Header
		if c.status == 304 {
			if len(body) != 0 || h.Get("ETag") == "" || h.Get("Vary") != "Accept-Encoding" || h.Get("Cache-Control") != "no-cache" || h.Get("Content-Encoding") != "" {
				t.Errorf("%s: 304 with %d bytes, headers %v", c.name, len(body), h)
			}
			continue
		}
		if c.method == "GET" && int64(len(body)) != resp.ContentLength {
			t.Errorf("%s: %d bytes, Content-Length %d", c.name, len(body), resp.ContentLength)
		}
	}
}

// A build without its .br and .gz (only `go build` ran), or with stale ones
// from an earlier build, is still served: gzip made once at start, brotli
// left out, and never a compressed file that is not the file.
func TestPrecompressedMissingOrStale(t *testing.T) {
	_, exec, wasm := testFiles()
	stale := append([]byte(nil), wasm...)
	stale[len(stale)/2] ^= 0xff
	dirs := map[string]func(t *testing.T) string{
		"none":      func(t *testing.T) string { return writeBuild(t, exec, wasm) },
		"gzip only": func(t *testing.T) string { return writeBuild(t, exec, wasm, Gzip) },
		"stale": func(t *testing.T) string {
			dir := writeBuild(t, exec, stale, Brotli, Gzip)
			if err := os.WriteFile(filepath.Join(dir, WasmFile), wasm, 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		},
		"truncated": func(t *testing.T) string {
			dir := writeBuild(t, exec, wasm, Brotli, Gzip)
			for _, e := range Compressed {
				p := filepath.Join(dir, WasmFile+e.Suffix())
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, b[:len(b)/2], 0o644); err != nil {
					t.Fatal(err)
				}
			}
			return dir
		},
	}
	for name, mk := range dirs {
		t.Run(name, func(t *testing.T) {
			site, err := Load(mk(t))
			if err != nil {
				t.Fatal(err)
			}
			sz, ok := site.Sizes("/" + WasmFile)
			if !ok || sz.Brotli != 0 || sz.Gzip == 0 || sz.Raw != len(wasm) || len(sz.Notes) == 0 {
				t.Fatalf("sizes %+v", sz)
			}
			t.Logf("notes: %q", sz.Notes)
			srv := httptest.NewServer(site)
			defer srv.Close()
			resp, body := get(t, srv.URL, "GET", "/game.wasm", http.Header{"Accept-Encoding": {"gzip, deflate, br, zstd"}})
			if resp.Header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("Content-Encoding %q", resp.Header.Get("Content-Encoding"))
			}
			if err := Verify(Gzip, body, wasm); err != nil {
				t.Fatalf("gzip body: %v", err)
			}
		})
	}
	// A build without wasm_exec.js fails to load, saying what to run.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, WasmFile), wasm, 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "make web") {
		t.Errorf("Load without wasm_exec.js: %v", err)
	}
}

func TestVerify(t *testing.T) {
	_, _, wasm := testFiles()
	for _, e := range []Encoding{Brotli, Gzip, Identity} {
		b, err := compressed(e, wasm)
		if err != nil {
			t.Fatal(err)
		}
		for name, c := range map[string]struct {
			raw  []byte
			fail bool
		}{
			"same":     {wasm, false},
			"shorter":  {wasm[:len(wasm)-1], true},
			"longer":   {append(wasm[:len(wasm):len(wasm)], 0), true},
			"one byte": {append(append([]byte(nil), wasm[:100]...), append([]byte{wasm[100] ^ 1}, wasm[101:]...)...), true},
			"empty":    {nil, true},
		} {
			if err := Verify(e, b, c.raw); (err != nil) != c.fail {
				t.Errorf("%v, %s: %v", e, name, err)
			}
		}
	}
	if err := Verify(Brotli, []byte("not brotli at all"), wasm); err == nil {
		t.Error("garbage verified as brotli")
	}
}

// TestBrotliWindowFitsTheFile: a small file is compressed in the least
// window that holds it, so that compressing the page at start allocates
// about what the page is, not the 128 MiB of the widest window; a file
// wider than every window keeps the widest, and what any window makes
// decompresses to the file.
func TestBrotliWindowFitsTheFile(t *testing.T) {
	for _, tc := range []struct{ n, want int }{
		{0, 10}, {1008, 10}, {1009, 11}, {8000, 13}, {1<<24 - 16, 24}, {14_000_000, 24}, {40 << 20, 24},
	} {
		if got := brotliWindow(tc.n); got != tc.want {
			t.Errorf("brotliWindow(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
	page := bytes.Repeat([]byte("<p>the arena, the bolts, the creatures</p>\n"), 200) // 8.6 kB
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b, err := compressed(Brotli, page)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("compressing %d bytes in brotli allocated %d bytes, want at most 8 MiB", len(page), got)
	}
	if err := Verify(Brotli, b, page); err != nil {
		t.Errorf("the page compressed in brotli: %v", err)
	}
}
