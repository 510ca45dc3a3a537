// Package web serves the browser client from the match server's own address:
// the page, wasm_exec.js and the game's WebAssembly, each in brotli or gzip
// as the browser asks (precompressed at build time by cmd/precompress, see
// `make web`), revalidated by ETag, so a browser player only opens
// http://HOST:PORT/ and joins the match served there.
package web

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sightline-game/sightline/wasm/page"
)

// WasmFile and ExecFile are the names of the built files in a web
// directory; DecoderFile is the page's LZMA decoder (see LZMASuffix), which
// the program embeds beside the page.
const (
	WasmFile    = "game.wasm"
	ExecFile    = "wasm_exec.js"
	DecoderFile = "lzma.js"
)

// The content types of the files: application/wasm is what streaming
// compilation (WebAssembly.compileStreaming) insists on.
const (
	TypeHTML = "text/html; charset=utf-8"
	TypeJS   = "text/javascript; charset=utf-8"
	TypeWasm = "application/wasm"
)

// UncompressedLengthHeader states the raw size of a file sent compressed:
// the page's progress bar counts the decoded bytes against it.
const UncompressedLengthHeader = "X-Uncompressed-Length"

// File is one file to serve: its raw bytes and, optionally, its bytes
// already compressed in brotli and gzip (as cmd/precompress writes them).
type File struct {
	Path        string // the URL path, "/" for the page
	ContentType string
	Raw         []byte
	Brotli      []byte // nil: not served in brotli
	Gzip        []byte // nil: compressed with gzip when the site is made
	// LZMA is the file packed in LZMA (see LZMASuffix), served at Path
	// plus LZMASuffix; nil: not served packed.
	LZMA []byte
}

// representation is a file in one encoding.
type representation struct {
	body []byte
	etag string // strong, distinct per representation: the body's hash
}

// asset is one file in every encoding the site has it in.
type asset struct {
	contentType string
	rep         [numEncodings]*representation
	sizes       Sizes
	// decoded and crc describe what a packed file decodes to: its size
	// and CRC-32 (crcHex), stated in the answer's headers; 0 and "" for
	// every other file.
	decoded int
	crc     string
}

func (a *asset) has() (have [numEncodings]bool) {
	for e, r := range a.rep {
		have[e] = r != nil
	}
	return have
}

// Sizes are a file's bytes in each encoding it is served in (0: not served
// in it), and how the site came by its compressed forms.
type Sizes struct {
	Raw, Gzip, Brotli int
	// LZMA is the file packed in LZMA, served at its path plus
	// LZMASuffix (0: not served so).
	LZMA int
	// Notes say which compressed forms came from the build and which were
	// made at start or left out, and why.
	Notes []string
}

// Site is the browser client, ready to serve.
type Site struct {
	assets map[string]*asset
}

// Sizes reports what the site serves at path ("/" is the page, "/game.wasm"
// the game), and ok false when it serves nothing there.
func (s *Site) Sizes(path string) (sz Sizes, ok bool) {
	a := s.assets[path]
	if a == nil {
		return Sizes{}, false
	}
	return a.sizes, true
}

// Load reads game.wasm and wasm_exec.js from dir (what `make web` builds)
// with their precompressed .br and .gz beside them, and game.wasm.lzma. A
// compressed file that is missing, unreadable or does not decompress to
// the file (a stale one from an earlier build) is not served: gzip is then
// made once, here, and brotli left out; a packed one missing or whose
// header does not fit the file is not served (the page then downloads the
// game in gzip). The page and its LZMA decoder, embedded in the program,
// are compressed here.
func Load(dir string) (*Site, error) {
	var files []File
	for _, f := range []struct{ name, ct string }{{WasmFile, TypeWasm}, {ExecFile, TypeJS}} {
		raw, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			return nil, fmt.Errorf("web: %w (build it with `make web`)", err)
		}
		file := File{Path: "/" + f.name, ContentType: f.ct, Raw: raw}
		for _, e := range Compressed {
			b, err := os.ReadFile(filepath.Join(dir, f.name+e.Suffix()))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("web: %w", err)
			}
			if e == Brotli {
				file.Brotli = b
			} else {
				file.Gzip = b
			}
		}
		if f.name == WasmFile {
			b, err := os.ReadFile(filepath.Join(dir, f.name+LZMASuffix))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("web: %w", err)
			}
			file.LZMA = b
		}
		files = append(files, file)
	}
	return NewSite(append(files, pageFile(page.Index), decoderFile(page.LZMA))...)
}

// New makes a site from the page, wasm_exec.js and the game's WebAssembly,
// compressing them now: the page and its LZMA decoder in brotli and gzip,
// the other two in gzip (the game is not served packed).
func New(index, exec, wasm []byte) (*Site, error) {
	return NewSite(pageFile(index), decoderFile(page.LZMA),
		File{Path: "/" + ExecFile, ContentType: TypeJS, Raw: exec},
		File{Path: "/" + WasmFile, ContentType: TypeWasm, Raw: wasm})
}

// pageFile is the page, compressed now: it is a few kilobytes (brotli
// takes a few milliseconds).
func pageFile(index []byte) File {
	f := File{Path: "/", ContentType: TypeHTML, Raw: index}
	f.Brotli, _ = compressed(Brotli, index) // nil on failure: not served in brotli
	f.Gzip, _ = compressed(Gzip, index)
	return f
}

// decoderFile is the page's LZMA decoder, lzma.js, compressed now.
func decoderFile(js []byte) File {
	f := File{Path: "/" + DecoderFile, ContentType: TypeJS, Raw: js}
	f.Brotli, _ = compressed(Brotli, js)
	f.Gzip, _ = compressed(Gzip, js)
	return f
}

// NewSite makes a site serving files. Each compressed form given must
// decompress to the raw file, or it is left out (noted in Sizes); gzip is
// made here when missing, so every file is served at least in gzip.
func NewSite(files ...File) (*Site, error) {
	s := &Site{assets: make(map[string]*asset)}
	for _, f := range files {
		a := &asset{contentType: f.ContentType}
		a.rep[Identity] = newRepresentation(Identity, f.Raw)
		name := strings.TrimPrefix(f.Path, "/")
		if name == "" {
			name = "the page"
		}
		for _, e := range Compressed {
			body := f.Brotli
			if e == Gzip {
				body = f.Gzip
			}
			switch {
			case body == nil && e == Brotli:
				a.sizes.Notes = append(a.sizes.Notes, fmt.Sprintf("%s%s missing: not served in brotli", name, e.Suffix()))
				continue
			case body == nil:
				a.sizes.Notes = append(a.sizes.Notes, fmt.Sprintf("%s%s missing: compressed with gzip at start", name, e.Suffix()))
			default:
				if err := Verify(e, body, f.Raw); err != nil {
					a.sizes.Notes = append(a.sizes.Notes, fmt.Sprintf("%s%s left out: %v", name, e.Suffix(), err))
					if e == Brotli {
						continue
					}
					body = nil
				}
			}
			if body == nil { // gzip, missing or stale
				var err error
				if body, err = compressed(e, f.Raw); err != nil {
					return nil, fmt.Errorf("web: compress %s: %w", f.Path, err)
				}
			}
			a.rep[e] = newRepresentation(e, body)
		}
		a.sizes.Raw = len(f.Raw)
		if r := a.rep[Gzip]; r != nil {
			a.sizes.Gzip = len(r.body)
		}
		if r := a.rep[Brotli]; r != nil {
			a.sizes.Brotli = len(r.body)
		}
		if f.Path == "/"+WasmFile || f.LZMA != nil {
			if p := packedAsset(f, name, &a.sizes); p != nil {
				s.assets[f.Path+LZMASuffix] = p
			}
		}
		s.assets[f.Path] = a
	}
	return s, nil
}

// packedAsset is f packed in LZMA as the site serves it, or nil (noted in
// sizes) when f has no packed form or its header does not fit f.
func packedAsset(f File, name string, sizes *Sizes) *asset {
	if f.LZMA == nil {
		sizes.Notes = append(sizes.Notes, fmt.Sprintf("%s%s missing: not served packed", name, LZMASuffix))
		return nil
	}
	if err := checkLZMAHeader(f.LZMA, len(f.Raw)); err != nil {
		sizes.Notes = append(sizes.Notes, fmt.Sprintf("%s%s left out: %v", name, LZMASuffix, err))
		return nil
	}
	sizes.LZMA = len(f.LZMA)
	p := &asset{contentType: TypePacked, decoded: len(f.Raw), crc: crcHex(f.Raw)}
	p.rep[Identity] = newRepresentation(Identity, f.LZMA)
	p.sizes.Raw = len(f.LZMA)
	return p
}

func newRepresentation(e Encoding, body []byte) *representation {
	sum := sha256.Sum256(body)
	tag := hex.EncodeToString(sum[:12])
	if e != Identity {
		tag += "-" + e.String()
	}
	return &representation{body: body, etag: `"` + tag + `"`}
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

// emptyListPath is where a server hosting several matches lists them (see
// game/client.MatchesPath); a site mounted on a server that does not
// answers there with emptyList, so that the page's request for the list
// never meets a 404 (which a browser reports as an error).
const (
	emptyListPath = "/matches"
	emptyList     = `{"matches":[]}` + "\n"
)

// emptyICEPath and emptyICE are the same for the ICE servers a client asks
// for before its offer (GET /ice): a server that hands out none.
const (
	emptyICEPath = "/ice"
	emptyICE     = `{"iceServers":[]}` + "\n"
)

// ServeHTTP serves the page and its files in the encoding the client
// prefers among brotli, gzip and none, with an ETag per encoding so that a
// reload costs a 304.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if path == "/index.html" {
		path = "/"
	}
	a, ok := s.assets[path]
	empty := ""
	switch path {
	case emptyListPath:
		empty = emptyList
	case emptyICEPath:
		empty = emptyICE
	}
	if !ok && empty != "" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		// The server mounted no list of matches (it hosts one, which the
		// page joins without choosing) or of ICE servers (it needs none)
		// of its own.
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if r.Method == http.MethodGet {
			io.WriteString(w, empty)
		}
		return
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	accept, present := r.Header["Accept-Encoding"]
	enc := negotiate(strings.Join(accept, ","), present, a.has())
	rep := a.rep[enc]
	h := w.Header()
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", rep.etag)
	h.Set("Cache-Control", "no-cache") // revalidate: the ETag makes it cheap
	if noneMatch(r.Header.Get("If-None-Match"), rep.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", a.contentType)
	if enc != Identity {
		h.Set("Content-Encoding", enc.String())
	}
	if a.crc != "" {
		h.Set(UncompressedLengthHeader, strconv.Itoa(a.decoded))
		h.Set(UncompressedCRCHeader, a.crc)
	} else {
		h.Set(UncompressedLengthHeader, strconv.Itoa(a.sizes.Raw))
	}
	h.Set("Content-Length", strconv.Itoa(len(rep.body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(rep.body)
}

// noneMatch reports whether an If-None-Match header names etag (or is "*"),
// by the weak comparison RFC 9110 §13.1.2 asks for.
func noneMatch(header, etag string) bool {
	for tag := range strings.SplitSeq(header, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" || strings.TrimPrefix(tag, "W/") == etag {
			return true
		}
	}
	return false
}
