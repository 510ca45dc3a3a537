package web

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// A build with game.wasm.lzma serves it as plain bytes at its own path,
// stating the size and CRC-32 of the game it decodes to; one without it, or
// with one whose header names another size, serves no packed file and says
// why.
func TestServesThePackedGame(t *testing.T) {
	_, exec, wasm := testFiles()
	packed, err := PackLZMA(t.Context(), wasm)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyLZMA(t.Context(), packed, wasm); err != nil {
		t.Fatalf("xz's own output: %v", err)
	}
	t.Logf("%d bytes: lzma %d", len(wasm), len(packed))
	sized := bytes.Clone(packed) // the header names a size one byte short
	for i, b := range []byte{byte(len(wasm) - 1), byte((len(wasm) - 1) >> 8), byte((len(wasm) - 1) >> 16), 0, 0, 0, 0, 0} {
		sized[5+i] = b
	}
	for _, c := range []struct {
		name   string
		packed []byte
		served bool
	}{
		{"packed", packed, true},
		{"missing", nil, false},
		{"another size", sized, false},
		{"garbage", []byte("not lzma at all"), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeBuild(t, exec, wasm, Gzip)
			if c.packed != nil {
				if err := os.WriteFile(filepath.Join(dir, WasmFile+LZMASuffix), c.packed, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			site, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			sz, _ := site.Sizes("/" + WasmFile)
			t.Logf("sizes %+v", sz)
			srv := httptest.NewServer(site)
			defer srv.Close()
			resp, body := get(t, srv.URL, "GET", "/"+WasmFile+LZMASuffix, http.Header{"Accept-Encoding": {"gzip, deflate"}})
			if !c.served {
				if resp.StatusCode != http.StatusNotFound || sz.LZMA != 0 || len(sz.Notes) == 0 {
					t.Fatalf("%s, LZMA %d bytes, notes %q: want 404 and a note", resp.Status, sz.LZMA, sz.Notes)
				}
				return
			}
			h := resp.Header
			wantCRC := fmt.Sprintf("%08x", crc32.ChecksumIEEE(wasm))
			if resp.StatusCode != http.StatusOK || !bytes.Equal(body, packed) || sz.LZMA != len(packed) ||
				h.Get("Content-Type") != TypePacked || h.Get("Content-Encoding") != "" ||
				h.Get(UncompressedLengthHeader) != strconv.Itoa(len(wasm)) || h.Get(UncompressedCRCHeader) != wantCRC ||
				h.Get("ETag") == "" {
				t.Fatalf("%s, %d bytes, headers %v, sizes %+v", resp.Status, len(body), h, sz)
			}
			// The decoder is served beside the page.
			if resp, js := get(t, srv.URL, "GET", "/"+DecoderFile, http.Header{}); resp.StatusCode != http.StatusOK || !bytes.Contains(js, []byte("class LZMADecoder")) {
				t.Fatalf("%s: %s", DecoderFile, resp.Status)
			}
		})
	}
}

// VerifyLZMA refuses a packed file that decodes to something else, or not
// at all.
func TestVerifyLZMA(t *testing.T) {
	_, _, wasm := testFiles()
	packed, err := PackLZMA(t.Context(), wasm)
	if err != nil {
		t.Fatal(err)
	}
	other := bytes.Clone(wasm)
	other[100] ^= 1
	if err := VerifyLZMA(t.Context(), packed, other); !errors.Is(err, errDiffers) {
		t.Errorf("another file: %v", err)
	}
	if err := VerifyLZMA(t.Context(), packed[:len(packed)/2], wasm); err == nil {
		t.Error("half the file verified")
	}
	if err := VerifyLZMA(t.Context(), []byte{1, 2, 3}, wasm); err == nil {
		t.Error("three bytes verified")
	}
}
