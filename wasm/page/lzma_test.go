package page

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The page's LZMA decoder (lzma.js) runs under node here, fed streams that
// xz made and streams spoilt on purpose; the browser test
// (wasm/browsertest, TestBrowserOnALANAddress) runs it as the page does.

// harnessCase and harnessResult are testdata/lzma_harness.js's input and
// output.
type harnessCase struct {
	Packed []byte `json:"packed"`
	Size   int    `json:"size"`
	Chunk  int    `json:"chunk"`
	CRC    string `json:"crc,omitempty"`
	Worker bool   `json:"worker,omitempty"`
}

type harnessResult struct {
	OK     bool   `json:"ok"`
	Length int    `json:"length"`
	CRC    string `json:"crc"`
	Error  string `json:"error"`
	Pieces int    `json:"pieces"`
}

// runHarness decodes every case with lzma.js under node.
func runHarness(t *testing.T, cases []harnessCase) []harnessResult {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node not found: it runs the page's LZMA decoder here (Debian: apt-get install nodejs; `make deps` installs it)")
	}
	in, err := json.Marshal(cases) // []byte as base64, as the harness reads it
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "testdata/lzma_harness.js")
	cmd.Stdin = bytes.NewReader(in)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var res []harnessResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res) != len(cases) {
		t.Fatalf("harness output (%d results for %d cases): %v\n%.500s", len(res), len(cases), err, out.String())
	}
	return res
}

// pack runs xz with args (after --format=lzma) on raw.
func pack(t *testing.T, raw []byte, args ...string) []byte {
	t.Helper()
	xz, err := exec.LookPath("xz")
	if err != nil {
		t.Fatal("xz not found (Debian: apt-get install xz-utils)")
	}
	cmd := exec.Command(xz, append([]string{"--format=lzma", "--stdout", "--quiet"}, args...)...)
	cmd.Stdin = bytes.NewReader(raw)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("xz %v: %v: %s", args, err, stderr.String())
	}
	return out.Bytes()
}

func crcHex(b []byte) string { return fmt.Sprintf("%08x", crc32.ChecksumIEEE(b)) }

// samples are files of several kinds: empty, one byte, noise, text that
// repeats with changes, zeros, and a mix of all with long matches far back.
func samples() map[string][]byte {
	rng := rand.New(rand.NewPCG(7, 8))
	noise := make([]byte, 100_000)
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	var text bytes.Buffer
	for text.Len() < 300_000 {
		fmt.Fprintf(&text, "func f%d(x int) int { return x*%d + %d } // %s\n", rng.IntN(900), rng.IntN(77), rng.IntN(5), strings.Repeat("ab", rng.IntN(9)))
	}
	mixed := append(append(append([]byte{}, text.Bytes()[:150_000]...), noise[:40_000]...), make([]byte, 70_000)...)
	mixed = append(mixed, text.Bytes()[1000:90_000]...)
	mixed = append(mixed, noise[:30_000]...) // a long match 200 KB back
	return map[string][]byte{
		"empty": {}, "one byte": {'x'}, "noise": noise, "text": text.Bytes(), "zeros": make([]byte, 1<<20), "mixed": mixed,
	}
}

// Every stream xz makes, with any lc/lp/pb and preset, decodes to its file,
// whole or fed a byte, 7 bytes or 4 KiB at a time.
func TestLZMADecodesWhatXZMakes(t *testing.T) {
	settings := [][]string{
		{"-9e"},
		{"-0"},
		{"--lzma1=preset=6,lc=0,lp=2,pb=0"},
		{"--lzma1=preset=3,lc=4,lp=0,pb=4"},
		{"--lzma1=preset=9,lc=1,lp=3,pb=1,nice=273"},
	}
	var cases []harnessCase
	var names []string
	var raws [][]byte
	for name, raw := range samples() {
		for _, args := range settings {
			packed := pack(t, raw, args...)
			for _, chunk := range []int{0, 1, 7, 4096} {
				if chunk == 1 && len(raw) > 200_000 {
					continue // a byte at a time is slow under node for the large ones
				}
				cases = append(cases, harnessCase{Packed: packed, Size: len(raw), Chunk: chunk})
				names = append(names, fmt.Sprintf("%s, xz %v, %d bytes a time", name, args, chunk))
				raws = append(raws, raw)
			}
		}
	}
	for i, r := range runHarness(t, cases) {
		if !r.OK || r.Length != len(raws[i]) || r.CRC != crcHex(raws[i]) {
			t.Errorf("%s: %+v, want %d bytes, CRC %s", names[i], r, len(raws[i]), crcHex(raws[i]))
		}
	}
	t.Logf("%d streams decoded", len(cases))
}

// A spoilt stream ends in an Error that says what was wrong (every message
// begins "lzma:"), never in a hang, a crash or anything but an Error; a
// spoilt stream may still decode (LZMA has no check of its own) but only
// to exactly the size stated. A size other than the stream's own is
// refused, and the worker refuses bytes whose CRC-32 is not the one
// stated, holding back the last piece.
func TestLZMARefusesSpoiltStreams(t *testing.T) {
	raw := samples()["mixed"]
	packed := pack(t, raw, "-6")
	rng := rand.New(rand.NewPCG(3, 4))
	var cases []harnessCase
	var what []string
	add := func(w string, b []byte, size int) {
		cases = append(cases, harnessCase{Packed: b, Size: size, Chunk: []int{0, 1000}[len(cases)%2]})
		what = append(what, w)
	}
	for range 150 {
		b := bytes.Clone(packed)
		i := 13 + rng.IntN(len(b)-13)
		b[i] ^= 1 << rng.IntN(8)
		add(fmt.Sprintf("bit flipped at %d", i), b, len(raw))
	}
	for range 60 {
		n := rng.IntN(len(packed))
		add(fmt.Sprintf("cut at %d", n), packed[:n], len(raw))
	}
	for range 40 {
		b := bytes.Clone(packed)
		i := rng.IntN(13)
		b[i] = byte(rng.Uint32())
		add(fmt.Sprintf("header byte %d set to %d", i, b[i]), b, len(raw))
	}
	for range 40 {
		b := make([]byte, rng.IntN(5000))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		if len(b) > 13 && rng.IntN(2) == 0 {
			copy(b, packed[:13]) // a good header over garbage
			b[13] = 0
		}
		add(fmt.Sprintf("%d bytes of garbage", len(b)), b, len(raw))
	}
	add("a size one short", packed, len(raw)-1)
	add("a size one over", packed, len(raw)+1)
	add("a size beyond the limit", packed, 1<<30)
	add("a negative size", packed, -1)
	results := runHarness(t, cases)
	decoded := 0
	for i, r := range results {
		switch {
		case r.OK && r.Length != cases[i].Size:
			t.Errorf("%s: decoded %d bytes, %d stated", what[i], r.Length, cases[i].Size)
		case r.OK:
			decoded++
		case !strings.HasPrefix(r.Error, "lzma: "):
			t.Errorf("%s: %q, want an Error saying what was wrong", what[i], r.Error)
		}
	}
	for i := len(cases) - 4; i < len(cases); i++ {
		if results[i].OK {
			t.Errorf("%s: decoded", what[i])
		}
	}
	t.Logf("%d spoilt streams: %d refused, %d decoded to the size stated (to be caught by the CRC-32); e.g. %q",
		len(cases), len(cases)-decoded, decoded, results[0].Error)

	// The worker: the right CRC-32 passes every piece, a wrong one holds
	// the last back and says so.
	text := samples()["text"] // 300 KB: two pieces
	work := []harnessCase{
		{Packed: pack(t, text, "-6"), Size: len(text), Chunk: 500, CRC: crcHex(text), Worker: true},
		{Packed: packed, Size: len(raw), Chunk: 3000, CRC: "0badc0de", Worker: true},
		{Packed: packed[:len(packed)/2], Size: len(raw), Chunk: 3000, CRC: crcHex(raw), Worker: true},
	}
	r := runHarness(t, work)
	if !r[0].OK || r[0].Length != len(text) || r[0].CRC != crcHex(text) || r[0].Pieces < 2 {
		t.Errorf("worker, right CRC: %+v", r[0])
	}
	if r[1].OK || !strings.Contains(r[1].Error, "CRC-32") {
		t.Errorf("worker, wrong CRC: %+v", r[1])
	}
	if r[2].OK || !strings.HasPrefix(r[2].Error, "lzma: ") {
		t.Errorf("worker, half the stream: %+v", r[2])
	}
}
