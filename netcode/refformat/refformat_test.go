package refformat_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/netcode/refformat"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// decode runs ReadHeader then Decode, as a receiver would.
func decode(f snapstream.Format, p []byte, base, out *snapshot.Snapshot) (snapstream.Header, error) {
	h, err := f.ReadHeader(p, 0)
	if err != nil {
		return h, err
	}
	if h.Full() {
		base = nil
	}
	return h, f.Decode(p, h, base, out)
}

func TestDocumentFigures(t *testing.T) {
	s := trafficSchema(100)
	rng := rand.New(rand.NewPCG(1, 2))
	base := randomSnapshot(s, 100, rng)
	full := refformat.ByteMask{Schema: s}.AppendFull(nil, 5, base)
	if len(full) != 707 || refformat.FullSize(base) != 707 {
		t.Errorf("full packet at N=100: %d bytes, FullSize %d; want 707", len(full), refformat.FullSize(base))
	}
	if p := (refformat.Full{}).AppendFull(nil, 5, base); !bytes.Equal(p, full) {
		t.Errorf("Full and ByteMask full packets differ")
	}
	// Every field of every entity changed.
	cur := snapshot.New(s)
	cur.CopyFrom(base)
	for i := range cur.Len() {
		row := cur.Row(i)
		for f := range row {
			row[f] ^= 1
		}
	}
	delta := refformat.ByteMask{Schema: s}.AppendDelta(nil, 5, 3, base, cur)
	if len(delta) != 820 || refformat.ByteMaskDeltaSize(base, cur) != 820 {
		t.Errorf("all-changed delta at N=100: %d bytes, ByteMaskDeltaSize %d; want 820", len(delta), refformat.ByteMaskDeltaSize(base, cur))
	}
	// Nothing changed: header and bitmask only, 7 + 13.
	if got := len(refformat.ByteMask{}.AppendDelta(nil, 5, 3, base, base)); got != 20 {
		t.Errorf("empty delta at N=100: %d bytes, want 20", got)
	}
}

func TestWireLayout(t *testing.T) {
	s := trafficSchema(4)
	snap := snapshot.New(s)
	_ = snap.Append(snapshot.EntityID{Index: 0}, 0x1234, 0xabcd, 0x3ff, 1)
	_ = snap.Append(snapshot.EntityID{Index: 1}, 1, 2, 3, 0)
	full := refformat.Full{}.AppendFull(nil, 0x01020304, snap)
	want := []byte{4, 3, 2, 1, 0, 2, 0,
		0x34, 0x12, 0xcd, 0xab, 0xff, 0x03, 1,
		1, 0, 2, 0, 3, 0, 0}
	if !bytes.Equal(full, want) {
		t.Errorf("full packet\n got % x\nwant % x", full, want)
	}
	cur := snapshot.New(s)
	cur.CopyFrom(snap)
	cur.Row(1)[2] = 0x155 // heading of entity 1
	cur.Row(1)[3] = 1     // state of entity 1
	delta := refformat.ByteMask{}.AppendDelta(nil, 9, 7, snap, cur)
	want = []byte{9, 0, 0, 0, 2, 2, 0, // header: tick 9, back 2, N 2
		0b10,          // bitmask: entity 1
		0b1100,        // field mask: heading, state
		0x55, 0x01, 1} // heading LE, state
	if !bytes.Equal(delta, want) {
		t.Errorf("delta packet\n got % x\nwant % x", delta, want)
	}
}

func TestRoundTrip(t *testing.T) {
	schemas := map[string]*snapshot.Schema{"traffic": trafficSchema(300), "wide": wideSchema(300)}
	for name, s := range schemas {
		for seed := uint64(1); seed <= 4; seed++ {
			for _, n := range []int{0, 1, 7, 8, 9, 100, 300} {
				for _, share := range []float64{0, 0.05, 0.3, 1} {
					t.Run(fmt.Sprintf("%s/seed%d/n%d/share%v", name, seed, n, share), func(t *testing.T) {
						roundTrip(t, s, seed, n, share)
					})
				}
			}
		}
	}
}

func roundTrip(t *testing.T, s *snapshot.Schema, seed uint64, n int, share float64) {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	base := randomSnapshot(s, n, rng)
	cur := mutate(base, share, rng)
	out := snapshot.New(s)
	bm := refformat.ByteMask{Schema: s}
	for _, f := range []snapstream.Format{refformat.Full{Schema: s}, bm} {
		p := f.AppendFull(nil, 77, cur)
		if len(p) != refformat.FullSize(cur) {
			t.Fatalf("%T full: %d bytes, FullSize %d", f, len(p), refformat.FullSize(cur))
		}
		h, err := decode(f, p, nil, out)
		if err != nil || h != (snapstream.Header{Tick: 77}) || !out.Equal(cur) {
			t.Fatalf("%T full: header %+v, err %v, equal %v", f, h, err, out.Equal(cur))
		}
	}
	for _, back := range []uint32{1, 2, 255} {
		tick := 1000 + back
		p := bm.AppendDelta(nil, tick, tick-back, base, cur)
		if want := refformat.ByteMaskDeltaSize(base, cur); len(p) != want {
			t.Fatalf("delta: %d bytes, ByteMaskDeltaSize %d", len(p), want)
		}
		h, err := decode(bm, p, base, out)
		if err != nil || h != (snapstream.Header{Tick: tick, Baseline: tick - back}) || !out.Equal(cur) {
			t.Fatalf("delta back %d: header %+v, err %v, equal %v", back, h, err, out.Equal(cur))
		}
	}
}

func TestDeltaFallsBackToFull(t *testing.T) {
	s := trafficSchema(100)
	rng := rand.New(rand.NewPCG(3, 3))
	base := randomSnapshot(s, 50, rng)
	cur := mutate(base, 0.2, rng)
	shorter := randomSnapshot(s, 49, rng)
	gapped := snapshot.New(s)
	for i := range 50 {
		_ = gapped.Append(snapshot.EntityID{Index: uint16(2 * i)}, base.Row(i)...)
	}
	cases := []struct {
		name           string
		tick, baseline uint32
		base, cur      *snapshot.Snapshot
		wantFull       bool
	}{
		{"back 256", 1256, 1000, base, cur, true},
		{"baseline 0", 10, 0, base, cur, true},
		{"baseline not before tick", 10, 10, base, cur, true},
		{"nil base", 10, 8, nil, cur, true},
		{"N differs", 10, 8, shorter, cur, true},
		{"ids not 0..N-1", 10, 8, gapped, cur, true},
		{"back 255", 1255, 1000, base, cur, false},
	}
	bm := refformat.ByteMask{}
	for _, c := range cases {
		p := bm.AppendDelta(nil, c.tick, c.baseline, c.base, c.cur)
		if full := p[4] == 0; full != c.wantFull {
			t.Errorf("%s: full packet %v, want %v", c.name, full, c.wantFull)
		}
		if c.wantFull && !bytes.Equal(p, bm.AppendFull(nil, c.tick, c.cur)) {
			t.Errorf("%s: fallback is not the full packet", c.name)
		}
	}
	if got := refformat.ByteMaskDeltaSize(shorter, cur); got != refformat.FullSize(cur) {
		t.Errorf("ByteMaskDeltaSize with N mismatch = %d, want FullSize %d", got, refformat.FullSize(cur))
	}
}

func TestMalformed(t *testing.T) {
	s := trafficSchema(32)
	rng := rand.New(rand.NewPCG(9, 9))
	base := randomSnapshot(s, 20, rng)
	cur := mutate(base, 0.3, rng)
	bm := refformat.ByteMask{Schema: s}
	full := packet(bm.AppendFull(nil, 50, cur))
	delta := packet(bm.AppendDelta(nil, 50, 48, base, cur))
	if delta[4] != 2 || len(delta) >= len(full) {
		t.Fatalf("setup: delta back %d, %d bytes vs full %d", delta[4], len(delta), len(full))
	}
	// A delta for entity 0 only, with the given field mask and values.
	one := func(mask byte, vals ...byte) packet {
		return header(50, 2, 20).bytes(1, 0, 0).bytes(mask).bytes(vals...)
	}
	b0 := base.Row(0)
	cases := []struct {
		name string
		f    snapstream.Format
		p    []byte
		base *snapshot.Snapshot
		want error
	}{
		{"empty", bm, nil, nil, refformat.ErrShort},
		{"short header", bm, full[:6], nil, refformat.ErrShort},
		{"tick 0", bm, header(0, 0, 0), nil, refformat.ErrMalformed},
		{"back past tick", bm, header(3, 4, 0), base, refformat.ErrMalformed},
		{"back equals tick", bm, header(3, 3, 0), base, refformat.ErrMalformed},
		{"N too big, full", bm, header(5, 0, 33).zeros(33 * 7), nil, refformat.ErrTooMany},
		{"N too big, delta", bm, header(5, 1, 1000), base, refformat.ErrTooMany},
		{"N 65535", bm, header(5, 0, 65535), nil, refformat.ErrTooMany},
		{"full truncated fields", bm, full[:len(full)-1], nil, refformat.ErrShort},
		{"full header only", bm, full[:7], nil, refformat.ErrShort},
		{"full trailing byte", bm, full.bytes(0), nil, refformat.ErrTrailing},
		{"full heading exceeds 10 bits", bm, full.set(7+5, 0x04), nil, refformat.ErrRange},
		{"full heading 0xffff", bm, full.set(7+4, 0xff).set(7+5, 0xff), nil, refformat.ErrRange},
		{"Full format given a delta", refformat.Full{Schema: s}, delta, base, refformat.ErrMalformed},
		{"delta without baseline", bm, delta, nil, refformat.ErrBaseline},
		{"delta N mismatch", bm, delta.set(5, 21), base, refformat.ErrBaseline},
		{"delta truncated bitmask", bm, delta[:8], base, refformat.ErrShort},
		{"delta header only", bm, delta[:7], base, refformat.ErrShort},
		{"delta truncated fields", bm, delta[:len(delta)-1], base, refformat.ErrShort},
		{"delta truncated field mask", bm, header(50, 2, 20).bytes(1, 0, 0), base, refformat.ErrShort},
		{"delta trailing byte", bm, delta.bytes(0), base, refformat.ErrTrailing},
		{"delta bitmask past N", bm, header(50, 2, 20).bytes(0, 0, 0x10), base, refformat.ErrMalformed},
		{"delta empty field mask", bm, one(0, 0, 0), base, refformat.ErrMalformed},
		{"delta field mask past fields", bm, one(0x10, 0), base, refformat.ErrMalformed},
		{"delta heading exceeds 10 bits", bm, one(0x4, 0x00, 0x04), base, refformat.ErrRange},
		{"delta field sent unchanged", bm, one(0x8, byte(b0[3])), base, refformat.ErrMalformed},
		{"delta half a value", bm, one(0x1, 0x01), base, refformat.ErrShort},
	}
	for _, c := range cases {
		out := snapshot.New(s)
		_, err := decode(c.f, c.p, c.base, out)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
	// Decode checks the header it is given against the packet's.
	out := snapshot.New(s)
	if err := bm.Decode(delta, snapstream.Header{Tick: 50}, base, out); !errors.Is(err, refformat.ErrMalformed) {
		t.Errorf("header mismatch: err %v, want ErrMalformed", err)
	}
	// And refuses an output with another layout.
	if err := bm.Decode(full, snapstream.Header{Tick: 50}, nil, snapshot.New(wideSchema(32))); !errors.Is(err, refformat.ErrSchema) {
		t.Errorf("schema mismatch: err %v, want ErrSchema", err)
	}
	// And decoding into the baseline itself.
	if err := bm.Decode(delta, snapstream.Header{Tick: 50, Baseline: 48}, base, base); !errors.Is(err, refformat.ErrBaseline) {
		t.Errorf("out == base: err %v, want ErrBaseline", err)
	}
	// The valid packets decode.
	if _, err := decode(bm, delta, base, out); err != nil || !out.Equal(cur) {
		t.Errorf("valid delta: err %v, equal %v", err, out.Equal(cur))
	}
	if _, err := decode(bm, one(0x8, byte(b0[3]^1)), base, out); err != nil {
		t.Errorf("valid one-field delta: err %v", err)
	}
}

func TestZeroAllocs(t *testing.T) {
	s := trafficSchema(100)
	rng := rand.New(rand.NewPCG(4, 4))
	base := randomSnapshot(s, 100, rng)
	cur := mutate(base, 0.3, rng)
	out := snapshot.New(s)
	bm := refformat.ByteMask{Schema: s}
	buf := make([]byte, 0, 2048)
	delta := bm.AppendDelta(nil, 10, 8, base, cur)
	full := bm.AppendFull(nil, 10, cur)
	dh, _ := bm.ReadHeader(delta, 0)
	fh, _ := bm.ReadHeader(full, 0)
	checks := map[string]func(){
		"AppendDelta":  func() { buf = bm.AppendDelta(buf[:0], 10, 8, base, cur) },
		"AppendFull":   func() { buf = bm.AppendFull(buf[:0], 10, cur) },
		"DeltaSize":    func() { _ = refformat.ByteMaskDeltaSize(base, cur) },
		"DecodeDelta":  func() { _ = bm.Decode(delta, dh, base, out) },
		"DecodeFull":   func() { _ = bm.Decode(full, fh, nil, out) },
		"FullDecode":   func() { _ = refformat.Full{}.Decode(full, fh, nil, out) },
		"ReadHeader":   func() { _, _ = bm.ReadHeader(delta, 0) },
		"FullEncoding": func() { buf = refformat.Full{}.AppendFull(buf[:0], 10, cur) },
	}
	for name, fn := range checks {
		if a := testing.AllocsPerRun(100, fn); a != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, a)
		}
	}
}

func BenchmarkAppendDelta(b *testing.B) {
	s := trafficSchema(100)
	rng := rand.New(rand.NewPCG(5, 5))
	base := randomSnapshot(s, 100, rng)
	cur := mutate(base, 0.15, rng)
	bm := refformat.ByteMask{Schema: s}
	buf := make([]byte, 0, 2048)
	b.ReportAllocs()
	for b.Loop() {
		buf = bm.AppendDelta(buf[:0], 10, 8, base, cur)
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkDecodeDelta(b *testing.B) {
	s := trafficSchema(100)
	rng := rand.New(rand.NewPCG(5, 5))
	base := randomSnapshot(s, 100, rng)
	cur := mutate(base, 0.15, rng)
	bm := refformat.ByteMask{Schema: s}
	p := bm.AppendDelta(nil, 10, 8, base, cur)
	h, _ := bm.ReadHeader(p, 0)
	out := snapshot.New(s)
	b.ReportAllocs()
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		if err := bm.Decode(p, h, base, out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeFull(b *testing.B) {
	s := trafficSchema(100)
	rng := rand.New(rand.NewPCG(5, 5))
	cur := randomSnapshot(s, 100, rng)
	bm := refformat.ByteMask{Schema: s}
	p := bm.AppendFull(nil, 10, cur)
	h, _ := bm.ReadHeader(p, 0)
	out := snapshot.New(s)
	b.ReportAllocs()
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		if err := bm.Decode(p, h, nil, out); err != nil {
			b.Fatal(err)
		}
	}
}
