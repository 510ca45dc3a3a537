// Package web serves the browser client from the match server's own address:
// the page, wasm_exec.js and the game's WebAssembly, compressed once with
// gzip and revalidated by ETag, so a browser player only opens
// http://HOST:PORT/ and joins the match served there.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sightline-game/sightline/wasm/page"
)

// WasmFile and ExecFile are the names of the built files in a web directory.
const (
	WasmFile = "game.wasm"
	ExecFile = "wasm_exec.js"
)

// asset is one file, kept raw and gzipped.
type asset struct {
	contentType string
	raw, gz     []byte
	etag        string
}

func newAsset(contentType string, raw []byte) (*asset, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	return &asset{contentType: contentType, raw: raw, gz: b.Bytes(), etag: `"` + hex.EncodeToString(sum[:12]) + `"`}, nil
}

// Site is the browser client, ready to serve.
type Site struct {
	assets map[string]*asset
}

// Sizes reports the game's WebAssembly raw and gzipped, in bytes.
func (s *Site) Sizes() (raw, gz int) {
	a := s.assets["/"+WasmFile]
	if a == nil {
		return 0, 0
	}
	return len(a.raw), len(a.gz)
}

// Load reads game.wasm and wasm_exec.js from dir (what `make web` builds)
// and compresses everything once.
func Load(dir string) (*Site, error) {
	wasm, err := os.ReadFile(filepath.Join(dir, WasmFile))
	if err != nil {
		return nil, fmt.Errorf("web: %w (build it with `make web`)", err)
	}
	exec, err := os.ReadFile(filepath.Join(dir, ExecFile))
	if err != nil {
		return nil, fmt.Errorf("web: %w (build it with `make web`)", err)
	}
	return New(page.Index, exec, wasm)
}

// New makes a site from the page, wasm_exec.js and the game's WebAssembly.
func New(index, exec, wasm []byte) (*Site, error) {
	s := &Site{assets: make(map[string]*asset)}
	for path, f := range map[string]struct {
		ct  string
		raw []byte
	}{
		"/":            {"text/html; charset=utf-8", index},
		"/" + ExecFile: {"text/javascript; charset=utf-8", exec},
		"/" + WasmFile: {"application/wasm", wasm},
	} {
		a, err := newAsset(f.ct, f.raw)
		if err != nil {
			return nil, fmt.Errorf("web: compress %s: %w", path, err)
		}
		s.assets[path] = a
	}
	return s, nil
}

// Mount registers on mux the signalling endpoint at signalPath and, if site
// is not nil, the site at every other path. Every method of signalPath
// reaches signal, and every method of the other paths reaches the site, so
// that each answers a wrong method itself (405, "method not allowed", with
// its Allow header) rather than the mux, whose 405 answer reads differently.
func Mount(mux *http.ServeMux, signalPath string, signal http.Handler, site *Site) {
	mux.Handle(signalPath, signal)
	if site != nil {
		mux.Handle("/", site)
	}
}

// ServeHTTP serves the page and its files: gzipped to clients that accept
// it, with an ETag so that a reload costs a 304.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if path == "/index.html" {
		path = "/"
	}
	a, ok := s.assets[path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("ETag", a.etag)
	h.Set("Cache-Control", "no-cache") // revalidate: the ETag makes it cheap
	h.Set("Vary", "Accept-Encoding")
	h.Set("X-Uncompressed-Length", strconv.Itoa(len(a.raw)))
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.raw
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

func acceptsGzip(v string) bool {
	for _, part := range strings.Split(v, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") || strings.TrimSpace(name) == "*" {
			return !strings.Contains(strings.ReplaceAll(params, " ", ""), "q=0") || strings.Contains(params, "q=0.")
		}
	}
	return false
}
