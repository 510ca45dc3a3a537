package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/game/web"
)

// Each file gets a .br and a .gz that decompress to it, and the .wasm a
// .lzma that xz decodes to it; a second run keeps them, and a changed file
// gets new ones.
func TestPrecompress(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.wasm"), filepath.Join(dir, "b.js")
	os.WriteFile(a, bytes.Repeat([]byte("\x00asm some wasm "), 3000), 0o644)
	os.WriteFile(b, []byte(strings.Repeat("globalThis.Go = class {};\n", 100)), 0o644)
	check := func(path string) {
		t.Helper()
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range web.Compressed {
			enc, err := os.ReadFile(path + e.Suffix())
			if err != nil {
				t.Fatal(err)
			}
			if err := web.Verify(e, enc, raw); err != nil || len(enc) >= len(raw)/4 {
				t.Errorf("%s%s: %d bytes for %d: %v", path, e.Suffix(), len(enc), len(raw), err)
			}
		}
		packed, err := os.ReadFile(path + web.LZMASuffix)
		if !strings.HasSuffix(path, ".wasm") {
			if err == nil {
				t.Errorf("%s packed in LZMA too", path)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := web.VerifyLZMA(t.Context(), packed, raw); err != nil || len(packed) >= len(raw)/4 {
			t.Errorf("%s%s: %d bytes for %d: %v", path, web.LZMASuffix, len(packed), len(raw), err)
		}
	}
	var out bytes.Buffer
	if err := run(&out, []string{a, b}); err != nil {
		t.Fatal(err)
	}
	check(a)
	check(b)
	if strings.Contains(out.String(), "up to date") || strings.Count(out.String(), "\n") != 5 {
		t.Errorf("first run said:\n%s", out.String())
	}
	out.Reset()
	os.WriteFile(b, []byte(strings.Repeat("globalThis.Go = class { run() {} };\n", 100)), 0o644)
	if err := run(&out, []string{a, b}); err != nil {
		t.Fatal(err)
	}
	check(b)
	if got := strings.Count(out.String(), "up to date"); got != 3 || !strings.Contains(out.String(), "a.wasm: 45000 bytes, br") || !strings.Contains(out.String(), "a.wasm: 45000 bytes, lzma") {
		t.Errorf("second run (a unchanged, b changed) said:\n%s", out.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 7 {
		t.Errorf("%d files in the directory, want 7 (no temporary ones left)", len(entries))
	}
	if err := run(&out, []string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing file compressed")
	}
}
