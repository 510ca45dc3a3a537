package web

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
)

// Encoding is a content coding the site serves a file in.
type Encoding int

// The encodings, in the order of the server's preference when a client
// accepts several equally: brotli, then gzip, then the raw bytes.
const (
	Brotli Encoding = iota
	Gzip
	Identity
	numEncodings
)

// Compressed are the encodings written at build time beside each file.
var Compressed = []Encoding{Brotli, Gzip}

// String is the encoding's token in Accept-Encoding and Content-Encoding.
func (e Encoding) String() string {
	switch e {
	case Brotli:
		return "br"
	case Gzip:
		return "gzip"
	case Identity:
		return "identity"
	}
	return "Encoding(" + strconv.Itoa(int(e)) + ")"
}

// Suffix is the extension of a file precompressed in e, "" for the raw file.
func (e Encoding) Suffix() string {
	switch e {
	case Brotli:
		return ".br"
	case Gzip:
		return ".gz"
	}
	return ""
}

// The settings of the build's compression: brotli at its best quality with
// the largest window every browser decodes (16 MiB) or, for a smaller
// file, the least window that holds it (brotliWindow), and gzip -9.
const (
	BrotliQuality = 11
	BrotliWindow  = 24
	GzipLevel     = gzip.BestCompression
)

// Compress writes raw to w compressed in e at the build's settings.
func Compress(w io.Writer, e Encoding, raw []byte) error {
	var zw io.WriteCloser
	switch e {
	case Brotli:
		zw = brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: BrotliQuality, LGWin: brotliWindow(len(raw))})
	case Gzip:
		gw, err := gzip.NewWriterLevel(w, GzipLevel)
		if err != nil {
			return err
		}
		zw = gw
	default:
		_, err := w.Write(raw)
		return err
	}
	if _, err := zw.Write(raw); err != nil {
		return fmt.Errorf("%v: %w", e, err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("%v: %w", e, err)
	}
	return nil
}

// brotliWindow is the base-2 logarithm of the least brotli window that holds
// n bytes (a window holds 2^w - 16), from brotli's least, 10, to
// BrotliWindow. A window wider than the file compresses it no better, and
// at quality 11 the encoder allocates about 8 bytes per byte of window:
// the page's few kilobytes in a 16 MiB window took 128 MiB at start, which
// the heap then carried as its size until the first collection.
func brotliWindow(n int) int {
	w := 10
	for w < BrotliWindow && 1<<w-16 < n {
		w++
	}
	return w
}

// compressed returns raw compressed in e.
func compressed(e Encoding, raw []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := Compress(&b, e, raw); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Decompress returns a reader of what body, compressed in e, holds.
func Decompress(e Encoding, body io.Reader) (io.Reader, error) {
	switch e {
	case Brotli:
		return brotli.NewReader(body), nil
	case Gzip:
		return gzip.NewReader(body)
	case Identity:
		return body, nil
	}
	return nil, fmt.Errorf("web: unknown encoding %v", e)
}

// errDiffers says a compressed file does not hold the file it sits beside.
var errDiffers = errors.New("does not decompress to the file beside it")

// Verify returns nil when enc, compressed in e, decompresses to exactly
// raw. It streams: a stale or truncated file fails without being decoded
// whole.
func Verify(e Encoding, enc, raw []byte) error {
	r, err := Decompress(e, bytes.NewReader(enc))
	if err != nil {
		return err
	}
	buf := make([]byte, 64<<10)
	rest := raw
	for {
		n, err := r.Read(buf)
		if n > len(rest) || !bytes.Equal(buf[:n], rest[:n]) {
			return errDiffers
		}
		rest = rest[n:]
		if err == io.EOF {
			if len(rest) != 0 {
				return errDiffers
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// negotiate picks the encoding to answer an Accept-Encoding header with,
// among the encodings have holds (Identity is always there). The client's
// q-values decide; among equal ones the server prefers brotli, then gzip,
// then the raw bytes, which are also the answer when the header is absent
// or excludes everything (RFC 9110 §12.5.3: an unacceptable coding is no
// reason to fail).
func negotiate(header string, present bool, have [numEncodings]bool) Encoding {
	if !present {
		return Identity
	}
	var q [numEncodings]float64
	listed := [numEncodings]bool{}
	star, starListed := 0.0, false
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		weight, ok := qValue(params)
		if !ok {
			continue // a malformed entry counts for nothing
		}
		var e Encoding
		switch name {
		case "br":
			e = Brotli
		case "gzip", "x-gzip":
			e = Gzip
		case "identity":
			e = Identity
		case "*":
			star, starListed = weight, true
			continue
		default:
			continue
		}
		if !listed[e] || weight > q[e] {
			q[e] = weight
		}
		listed[e] = true
	}
	for e := range numEncodings {
		if !listed[e] {
			switch {
			case starListed:
				q[e] = star
			case e == Identity:
				// Unlisted identity is acceptable, but only as the last
				// resort: "br;q=0.5" still asks for brotli.
				q[e] = 0.001
			}
		}
	}
	best, bestQ := Identity, 0.0
	for e := range numEncodings {
		if have[e] && q[e] > bestQ {
			best, bestQ = e, q[e]
		}
	}
	return best
}

// qValue reads the weight of one Accept-Encoding entry from its
// parameters: 1 without a q, false when the q is not a number in [0, 1].
func qValue(params string) (float64, bool) {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || f < 0 || f > 1 {
			return 0, false
		}
		return f, true
	}
	return 1, true
}
