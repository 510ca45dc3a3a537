package protocol

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// specExamples reads the worked examples of PROTOCOL.md: the bytes printed
// for each golden packet and the rows printed for each snapshot example.
//
// A golden packet is named in the text as "(`name.hex`"; the bytes of its
// example are the first code span after it (inline or fenced) made of at
// least three hex bytes (and "|" separators), before the next golden is
// named; later spans are fragments the text walks through. A fenced block
// of hex bytes that is no golden's example is an error: every printed
// packet must be one. A rows block is a fenced block whose first line is
// "name.hex, tick N (...): slot generation x y heading kind state health",
// then one entity a line.
type specExample struct {
	bytes []byte
	rows  map[uint32][][8]uint32 // per tick, its entities
}

var (
	specMention = regexp.MustCompile("\\(`([a-z0-9-]+)\\.hex`")
	specSpan    = regexp.MustCompile("`([^`]+)`")
	specRowsRe  = regexp.MustCompile(`^([a-z0-9-]+)\.hex, tick (\d+) \([^)]*\): slot generation x y heading kind state health$`)
)

// specHex parses s as hex bytes separated by spaces and "|", or returns nil.
func specHex(s string) []byte {
	var out []byte
	for _, f := range strings.Fields(s) {
		if f == "|" {
			continue
		}
		b, err := hex.DecodeString(f)
		if err != nil || len(b) != 1 || f != strings.ToLower(f) {
			return nil
		}
		out = append(out, b[0])
	}
	if len(out) < 3 {
		return nil
	}
	return out
}

func specExamples(t *testing.T) map[string]*specExample {
	t.Helper()
	b, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	ex := map[string]*specExample{}
	get := func(name string) *specExample {
		if ex[name] == nil {
			ex[name] = &specExample{rows: map[uint32][][8]uint32{}}
		}
		return ex[name]
	}
	current, taken := "", false
	code := func(text string, fenced bool, line int) {
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		if m := specRowsRe.FindStringSubmatch(lines[0]); fenced && m != nil {
			tick, _ := strconv.ParseUint(m[2], 10, 32)
			e := get(m[1])
			if _, dup := e.rows[uint32(tick)]; dup {
				t.Errorf("PROTOCOL.md:%d: the rows of %s.hex, tick %s, are printed twice", line, m[1], m[2])
			}
			e.rows[uint32(tick)] = [][8]uint32{}
			for i, l := range lines[1:] {
				f := strings.Fields(l)
				if len(f) != 8 {
					t.Errorf("PROTOCOL.md:%d: a row of %d values, want 8: %q", line+2+i, len(f), l)
					continue
				}
				var r [8]uint32
				for j, v := range f {
					n, err := strconv.ParseUint(v, 10, 32)
					if err != nil {
						t.Errorf("PROTOCOL.md:%d: %q: %v", line+2+i, l, err)
					}
					r[j] = uint32(n)
				}
				e.rows[uint32(tick)] = append(e.rows[uint32(tick)], r)
			}
			return
		}
		p := specHex(text)
		switch {
		case p == nil:
		case current != "" && !taken:
			get(current).bytes, taken = p, true
		case fenced:
			t.Errorf("PROTOCOL.md:%d: a packet printed as no golden's example (the last named, %q, has its bytes already)", line, current)
		}
	}
	var fence []string
	fenceAt := 0
	for i, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			if fence == nil {
				fence, fenceAt = []string{}, i+1
				continue
			}
			if len(fence) > 0 {
				code(strings.Join(fence, "\n"), true, fenceAt)
			}
			fence = nil
			continue
		}
		if fence != nil {
			fence = append(fence, line)
			continue
		}
		// Outside a fence: golden names and inline spans in line order.
		mentions := specMention.FindAllStringSubmatchIndex(line, -1)
		spans := specSpan.FindAllStringSubmatchIndex(line, -1)
		for _, sp := range spans {
			for len(mentions) > 0 && mentions[0][0] < sp[0] {
				current, taken = line[mentions[0][2]:mentions[0][3]], false
				mentions = mentions[1:]
			}
			if strings.HasSuffix(line[sp[2]:sp[3]], ".hex") {
				continue
			}
			code(line[sp[2]:sp[3]], false, i+1)
		}
		if len(mentions) > 0 {
			last := mentions[len(mentions)-1]
			current, taken = line[last[2]:last[3]], false
		}
	}
	return ex
}

// Every golden packet's bytes printed in PROTOCOL.md are the golden file's,
// and every snapshot example's rows, printed whole, encode to its golden
// packet: a full packet of its one tick, or a delta of its later tick
// against its earlier.
func TestSpecWorkedExamples(t *testing.T) {
	ex := specExamples(t)
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.hex"))
	if err != nil || len(files) == 0 {
		t.Fatalf("golden packets: %v %v", files, err)
	}
	codec := delta.MustCodec(Schema())
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".hex")
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		golden, err := hex.DecodeString(strings.Join(strings.Fields(string(text)), ""))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		e := ex[name]
		if e == nil || e.bytes == nil {
			t.Errorf("PROTOCOL.md prints no bytes of %s.hex", name)
			continue
		}
		if !slices.Equal(e.bytes, golden) {
			t.Errorf("PROTOCOL.md prints %s.hex as\n  % x\nthe golden packet is\n  % x", name, e.bytes, golden)
		}
		if !strings.HasPrefix(name, "snapshot-full") && !strings.HasPrefix(name, "snapshot-delta") {
			continue
		}
		ticks := make([]uint32, 0, len(e.rows))
		for tick := range e.rows {
			ticks = append(ticks, tick)
		}
		slices.Sort(ticks)
		snaps := make([]*snapshot.Snapshot, len(ticks))
		for i, tick := range ticks {
			snaps[i] = snapshot.New(Schema())
			for _, r := range e.rows[tick] {
				if err := snaps[i].Append(snapshot.EntityID{Index: uint16(r[0]), Generation: uint16(r[1])}, r[2:]...); err != nil {
					t.Errorf("PROTOCOL.md, %s.hex tick %d: row %v: %v", name, tick, r, err)
				}
			}
		}
		var p []byte
		switch full := strings.HasPrefix(name, "snapshot-full"); {
		case full && len(ticks) == 1:
			p = codec.AppendFull(nil, ticks[0], snaps[0])
		case !full && len(ticks) == 2:
			p = codec.AppendDelta(nil, ticks[1], ticks[0], snaps[0], snaps[1])
		default:
			t.Errorf("PROTOCOL.md prints the rows of %s.hex at ticks %v: want one tick for a full packet, two for a delta", name, ticks)
			continue
		}
		if !slices.Equal(p, golden) {
			t.Errorf("PROTOCOL.md's rows of %s.hex encode to\n  % x\nthe golden packet is\n  % x", name, p, golden)
		}
		// And the golden packet decodes onto the printed baseline to the
		// printed target.
		var base *snapshot.Snapshot
		newest := uint32(0)
		if len(ticks) == 2 {
			base, newest = snaps[0], ticks[0]
		}
		h, err := codec.ReadHeader(golden, newest)
		out := snapshot.New(Schema())
		if err == nil {
			err = codec.Decode(golden, h, base, out)
		}
		if err != nil || h.Tick != ticks[len(ticks)-1] || !out.Equal(snaps[len(snaps)-1]) {
			t.Errorf("%s.hex decoded onto PROTOCOL.md's baseline: tick %d, %v; not the printed target", name, h.Tick, err)
		}
	}
	for name := range ex {
		if _, err := os.Stat(filepath.Join("testdata", "golden", name+".hex")); err != nil {
			t.Errorf("PROTOCOL.md prints an example of %s.hex, which is no golden packet", name)
		}
	}
}
