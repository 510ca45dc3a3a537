package delta

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sightline-game/sightline/internal/figures"
	"github.com/sightline-game/sightline/internal/figures/figuretest"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// seedSchema is the layout of the reference deep dive's test: x, y, z at 18
// bits, yaw at 9 bits, 10-bit ids (its full snapshot is 9 bytes an entity).
var seedSchema = snapshot.MustSchema(10, 4, 0,
	snapshot.Field{Name: "x", Bits: 18}, snapshot.Field{Name: "y", Bits: 18},
	snapshot.Field{Name: "z", Bits: 18}, snapshot.Field{Name: "yaw", Bits: 9})

func mustAppend(t testing.TB, s *snapshot.Snapshot, id snapshot.EntityID, v ...uint32) {
	t.Helper()
	if err := s.Append(id, v...); err != nil {
		t.Fatal(err)
	}
}

// roundTrip encodes cur against base (or full when base is nil), decodes it
// and checks the result equals cur. It returns the packet length.
func roundTrip(t testing.TB, c *Codec, tick, baseline uint32, base, cur *snapshot.Snapshot) int {
	t.Helper()
	var p []byte
	if base == nil {
		p = c.AppendFull(nil, tick, cur)
		if len(p) != c.FullLen(cur) {
			t.Fatalf("full packet %d bytes, FullLen %d", len(p), c.FullLen(cur))
		}
	} else {
		p = c.AppendDelta(nil, tick, baseline, base, cur)
		sameWithChanges(t, c, tick, baseline, base, cur, p)
	}
	h, err := c.ReadHeader(p, baseline+1)
	if base == nil {
		h, err = c.ReadHeader(p, 0)
	}
	if err != nil {
		t.Fatalf("header: %v", err)
	}
	if h.Tick != tick || (base != nil && h.Baseline != baseline) || (base == nil) != h.Full() {
		t.Fatalf("header %+v, want tick %d baseline %d", h, tick, baseline)
	}
	out := snapshot.New(c.Schema())
	if err := c.Decode(p, h, base, out); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !out.Equal(cur) {
		for i := range min(out.Len(), cur.Len()) {
			if out.ID(i) != cur.ID(i) || !slices.Equal(out.Row(i), cur.Row(i)) {
				t.Errorf("entity %d: decoded %v %v, sent %v %v", i, out.ID(i), out.Row(i), cur.ID(i), cur.Row(i))
				if base != nil {
					if j, ok := base.Find(cur.ID(i).Index); ok {
						t.Errorf("baseline %v %v", base.ID(j), base.Row(j))
					}
				}
			}
		}
		t.Fatalf("decoded %d entities differ from %d sent (%d differ)", out.Len(), cur.Len(), out.Diff(cur))
	}
	return len(p)
}

// sameWithChanges checks that the codec, handed how cur differs from base,
// writes p, the packet it wrote comparing them itself.
func sameWithChanges(t testing.TB, c *Codec, tick, baseline uint32, base, cur *snapshot.Snapshot, p []byte) {
	t.Helper()
	var ch snapshot.Changes
	ch.Compare(base, cur)
	if q := c.AppendDeltaChanges(nil, tick, baseline, base, cur, &ch); !bytes.Equal(q, p) {
		t.Fatalf("handed the changes: %d bytes %x; comparing itself: %d bytes %x", len(q), q, len(p), p)
	}
}

func TestSeedCase200Entities(t *testing.T) {
	c := MustCodec(seedSchema)
	base := snapshot.New(seedSchema)
	for i := range 200 {
		mustAppend(t, base, snapshot.EntityID{Index: uint16(i)}, uint32(i)*100, 5000, 7, 300)
	}
	cur := snapshot.New(seedSchema)
	for i := range 200 {
		if i == 5 {
			continue // removed
		}
		row := append([]uint32(nil), base.Row(i)...)
		if i%10 == 0 { // 20 movers: a small move on x and on the angle
			row[0] += 3
			row[3] = (row[3] + 1) % 512
		}
		mustAppend(t, cur, snapshot.EntityID{Index: uint16(i)}, row...)
	}
	mustAppend(t, cur, snapshot.EntityID{Index: 900}, 1, 2, 3, 4) // added
	n := roundTrip(t, c, 41, 40, base, cur)
	const fullBytes = 200 * 9
	t.Logf("delta %d bytes; the reference full snapshot is %d bytes, ours %d", n, fullBytes, c.FullLen(cur))
	figuretest.Hold(t, "delta-200-entities", fmt.Sprintf("the delta decodes exactly in %d bytes, where the reference document's is 96 and its full snapshot %s (ours %s)",
		n, figures.Thousands(fullBytes), figures.Thousands(c.FullLen(cur))))
	if n > 96 {
		t.Fatalf("delta is %d bytes, want at most 96", n)
	}
	if c.FullLen(cur) > fullBytes {
		t.Fatalf("our full snapshot %d bytes exceeds the byte-aligned %d", c.FullLen(cur), fullBytes)
	}
}

// randomWorld returns a snapshot with n entities in random slots.
func randomWorld(rng *rand.Rand, s *snapshot.Schema, n int) *snapshot.Snapshot {
	out := snapshot.New(s)
	perm := rng.Perm(1 << s.IndexBits)[:n]
	slots := make([]bool, 1<<s.IndexBits)
	for _, p := range perm {
		slots[p] = true
	}
	for i, used := range slots {
		if !used {
			continue
		}
		row := make([]uint32, len(s.Fields))
		for f, fd := range s.Fields {
			row[f] = rng.Uint32() & fd.Max()
		}
		if err := out.Append(snapshot.EntityID{Index: uint16(i), Generation: uint16(rng.IntN(int(s.MaxGeneration()) + 1))}, row...); err != nil {
			panic(err)
		}
	}
	return out
}

// evolve returns a copy of s where entities moved, despawned, spawned and
// slots were reused with a new generation.
func evolve(rng *rand.Rand, s *snapshot.Snapshot, moveShare float64) *snapshot.Snapshot {
	sch := s.Schema()
	out := snapshot.New(sch)
	taken := make(map[uint16]bool)
	type ent struct {
		id  snapshot.EntityID
		row []uint32
	}
	var ents []ent
	for i := range s.Len() {
		id := s.ID(i)
		row := append([]uint32(nil), s.Row(i)...)
		switch r := rng.Float64(); {
		case r < 0.03:
			continue // despawn
		case r < 0.05:
			id.Generation = (id.Generation + 1) & sch.MaxGeneration() // reused slot
		}
		if rng.Float64() < moveShare {
			for f, fd := range sch.Fields {
				if rng.IntN(3) == 0 {
					continue
				}
				if rng.IntN(10) == 0 {
					row[f] = rng.Uint32() & fd.Max() // a jump
				} else {
					row[f] = (row[f] + uint32(rng.IntN(41)-20)) & fd.Max() // small, wrapping
				}
			}
		}
		taken[id.Index] = true
		ents = append(ents, ent{id, row})
	}
	for range rng.IntN(4) {
		slot := uint16(rng.IntN(1 << sch.IndexBits))
		if taken[slot] || len(ents) >= sch.MaxEntities {
			continue
		}
		taken[slot] = true
		row := make([]uint32, len(sch.Fields))
		for f, fd := range sch.Fields {
			row[f] = rng.Uint32() & fd.Max()
		}
		ents = append(ents, ent{snapshot.EntityID{Index: slot}, row})
	}
	// sort by slot
	for i := 1; i < len(ents); i++ {
		for j := i; j > 0 && ents[j].id.Index < ents[j-1].id.Index; j-- {
			ents[j], ents[j-1] = ents[j-1], ents[j]
		}
	}
	for _, e := range ents {
		if err := out.Append(e.id, e.row...); err != nil {
			panic(err)
		}
	}
	return out
}

func TestRandomRoundTrips(t *testing.T) {
	schemas := []*snapshot.Schema{
		seedSchema,
		snapshot.MustSchema(6, 0, 0, snapshot.Field{Name: "only", Bits: 1}),
		snapshot.MustSchema(8, 16, 200, snapshot.Field{Name: "a", Bits: 32}, snapshot.Field{Name: "b", Bits: 2}, snapshot.Field{Name: "c", Bits: 7}),
		snapshot.MustSchema(12, 3, 0, snapshot.Field{Name: "x", Bits: 16}, snapshot.Field{Name: "y", Bits: 16}, snapshot.Field{Name: "h", Bits: 10}, snapshot.Field{Name: "s", Bits: 8}),
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for si, s := range schemas {
		c := MustCodec(s)
		for run := range 60 {
			n := rng.IntN(min(s.MaxEntities, 300) + 1)
			base := randomWorld(rng, s, n)
			roundTrip(t, c, uint32(run+1), 0, nil, base)
			cur := base
			for step := range 5 {
				next := evolve(rng, cur, []float64{0, 0.05, 0.5, 1}[step%4])
				roundTrip(t, c, uint32(1000+step), uint32(1000+step-1-rng.IntN(3)), cur, next)
				cur = next
			}
			_ = si
		}
	}
}

func TestEmptyAndIdentical(t *testing.T) {
	c := MustCodec(seedSchema)
	empty := snapshot.New(seedSchema)
	if n := roundTrip(t, c, 5, 0, nil, empty); n != 5 {
		t.Errorf("empty full snapshot is %d bytes, want 5", n)
	}
	world := randomWorld(rand.New(rand.NewPCG(1, 1)), seedSchema, 100)
	n := roundTrip(t, c, 9, 8, world, world)
	if n > 3 {
		t.Errorf("a delta with nothing changed is %d bytes, want at most 3", n)
	}
	roundTrip(t, c, 9, 8, empty, world) // everything new
	roundTrip(t, c, 9, 8, world, empty) // everything removed
}

func TestAngleWrapIsSmall(t *testing.T) {
	s := snapshot.MustSchema(4, 0, 0, snapshot.Field{Name: "heading", Bits: 10})
	c := MustCodec(s)
	base, cur := snapshot.New(s), snapshot.New(s)
	for i := range 16 {
		mustAppend(t, base, snapshot.EntityID{Index: uint16(i)}, 1022)
		mustAppend(t, cur, snapshot.EntityID{Index: uint16(i)}, 1)
	}
	c.AppendDelta(nil, 3, 2, base, cur)
	if c.resid[0] != bitpack.Zigzag(3) {
		t.Fatalf("1022 -> 1 coded as residual %d; a wrapped change of 3 steps is zigzag(3) = 6", c.resid[0])
	}
	// 16 residuals of 3 bits, with the gamma order 2 the packet chooses:
	// 3 bits each, and 4 header bits besides the sets.
	if c.Encoder.plan.order[0] != 2 {
		t.Fatalf("gamma order %d, want 2", c.Encoder.plan.order[0])
	}
	roundTrip(t, c, 3, 2, base, cur)
}

func TestReplacedSlotIsRemovalPlusNew(t *testing.T) {
	c := MustCodec(seedSchema)
	base, cur := snapshot.New(seedSchema), snapshot.New(seedSchema)
	mustAppend(t, base, snapshot.EntityID{Index: 3, Generation: 1}, 10, 10, 10, 10)
	mustAppend(t, cur, snapshot.EntityID{Index: 3, Generation: 2}, 10, 10, 10, 10)
	roundTrip(t, c, 2, 1, base, cur)
	c.AppendDelta(nil, 2, 1, base, cur)
	if len(c.Encoder.removed) != 1 || len(c.newIdx) != 1 || len(c.changed) != 0 {
		t.Fatalf("%d removed, %d new, %d changed: a new generation must be a removal plus a new entity", len(c.Encoder.removed), len(c.newIdx), len(c.changed))
	}
}

func TestDeltaGrowsWithChanges(t *testing.T) {
	s := snapshot.MustSchema(10, 0, 0, snapshot.Field{Name: "x", Bits: 16}, snapshot.Field{Name: "y", Bits: 16})
	c := MustCodec(s)
	base := snapshot.New(s)
	for i := range 1000 {
		mustAppend(t, base, snapshot.EntityID{Index: uint16(i)}, 1000, 1000)
	}
	prev := 0
	for _, moving := range []int{0, 10, 50, 100, 300, 1000} {
		cur := snapshot.New(s)
		for i := range 1000 {
			v := uint32(1000)
			if i < moving {
				v += 40
			}
			mustAppend(t, cur, snapshot.EntityID{Index: uint16(i)}, v, 1000)
		}
		n := roundTrip(t, c, 10, 9, base, cur)
		if moving > 0 && n <= prev {
			t.Fatalf("%d moving: %d bytes, not more than %d", moving, n, prev)
		}
		prev = n
	}
}

func TestDecodeRejects(t *testing.T) {
	c := MustCodec(seedSchema)
	rng := rand.New(rand.NewPCG(9, 9))
	base := randomWorld(rng, seedSchema, 50)
	cur := evolve(rng, base, 0.5)
	delta := c.AppendDelta(nil, 20, 18, base, cur)
	full := c.AppendFull(nil, 20, cur)
	h, err := c.ReadHeader(delta, 19)
	if err != nil {
		t.Fatal(err)
	}
	out := snapshot.New(seedSchema)
	hugeCount := func() []byte { // a full snapshot claiming 1<<30 entities
		w := bitpack.NewWriter(nil)
		w.Write(kindFull, 1)
		w.Write(20, tickBits)
		w.WriteGamma(1<<30, countOrder)
		return w.Bytes()
	}()
	cases := []struct {
		name string
		p    []byte
		h    snapstream.Header
		base *snapshot.Snapshot
		want error
	}{
		{"empty", nil, snapstream.Header{Tick: 1}, nil, ErrMalformed},
		{"truncated delta", delta[:len(delta)/2], h, base, ErrMalformed},
		{"truncated full", full[:len(full)-3], snapstream.Header{Tick: 20}, nil, ErrMalformed},
		{"trailing byte", append(append([]byte(nil), full...), 1), snapstream.Header{Tick: 20}, nil, ErrMalformed},
		{"huge count", hugeCount, snapstream.Header{Tick: 20}, nil, ErrTooMany},
		{"delta without baseline", delta, h, nil, ErrBaseline},
		{"delta onto itself", delta, h, out, ErrBaseline},
		{"header says full", delta, snapstream.Header{Tick: 20}, base, ErrKind},
		{"age disagrees", delta, snapstream.Header{Tick: 20, Baseline: 17}, base, ErrBaseline},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := c.Decode(tc.p, tc.h, tc.base, out); !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := c.ReadHeader(delta, 0); !errors.Is(err, ErrBaseline) {
		t.Errorf("delta header with no newest tick: %v", err)
	}
	if _, err := c.ReadHeader([]byte{0, 0, 0, 0, 0}, 0); !errors.Is(err, ErrMalformed) {
		t.Errorf("tick 0: %v", err)
	}
}

func TestTickUnwrapAcross16Bits(t *testing.T) {
	c := MustCodec(seedSchema)
	w := randomWorld(rand.New(rand.NewPCG(2, 2)), seedSchema, 10)
	for _, tc := range []struct{ tick, base, newest uint32 }{
		{65536 + 3, 65535, 65535}, {1 << 20, 1<<20 - 2, 1<<20 - 1}, {70000, 69990, 69995},
	} {
		p := c.AppendDelta(nil, tc.tick, tc.base, w, w)
		h, err := c.ReadHeader(p, tc.newest)
		if err != nil || h.Tick != tc.tick || h.Baseline != tc.base {
			t.Errorf("%+v: header %+v err %v", tc, h, err)
		}
	}
}

// The encoder finds changed rows by comparing values eight at a time, across
// row boundaries: for any row width it must list exactly the changed
// entities, with their exact masks.
func TestChangedRowsAnyWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, nf := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 31, 32} {
		fields := make([]snapshot.Field, nf)
		for f := range fields {
			fields[f] = snapshot.Field{Name: "f", Bits: uint8(1 + f%32)}
		}
		s := snapshot.MustSchema(10, 0, 0, fields...)
		c := MustCodec(s)
		for run := range 20 {
			n := rng.IntN(200)
			base, cur := snapshot.New(s), snapshot.New(s)
			want := map[int]uint32{}
			for e := range n {
				row := make([]uint32, nf)
				for f := range row {
					row[f] = rng.Uint32() & fields[f].Max()
				}
				mustAppend(t, base, snapshot.EntityID{Index: uint16(e)}, row...)
				for f := range row {
					if rng.IntN(8) == 0 && fields[f].Bits > 0 {
						row[f] ^= 1
						want[e] |= 1 << f
					}
				}
				mustAppend(t, cur, snapshot.EntityID{Index: uint16(e)}, row...)
			}
			c.analyse(base, cur)
			if len(c.changed) != len(want) {
				t.Fatalf("%d fields, run %d: %d changed, want %d", nf, run, len(c.changed), len(want))
			}
			for k, ch := range c.changed {
				if ch.base != ch.cur || c.Encoder.chgPos[k] != ch.base || want[int(ch.base)] != ch.mask {
					t.Fatalf("%d fields, run %d: change %+v at %d, want mask %#x", nf, run, ch, c.Encoder.chgPos[k], want[int(ch.base)])
				}
			}
			roundTrip(t, c, 9, 7, base, cur)
		}
	}
}

// driftPredictor predicts that field 0 grows by gap and field 1 by 3*gap
// when field 2 is odd, and that field 2 flips its low bit when its mask bit
// is set: deterministic, and wrong often enough to exercise every residual.
type driftPredictor struct{}

func (driftPredictor) Predict(base []uint32, gap, mask uint32, pred []uint32) {
	copy(pred, base)
	if base[2]&1 == 1 {
		pred[0] += gap
		pred[1] += 3 * gap
	}
	if mask&4 != 0 {
		pred[2] ^= 1
	}
}

// moverPredictor is driftPredictor as a Mover: the rows whose field 2 is
// odd move (fields 0 and 1 grow by gap and 3*gap), whatever the mask.
type moverPredictor struct{}

func (moverPredictor) Predict(base []uint32, gap, mask uint32, pred []uint32) {
	if base[2]&1 == 1 {
		copy(pred, base)
		pred[0] += gap
		pred[1] += 3 * gap
		return
	}
	driftPredictor{}.Predict(base, gap, mask, pred)
}

func (moverPredictor) Moves(row []uint32) bool { return row[2]&1 == 1 }

// A changed set of many close members and one far away codes its far gap
// with a long unary part; with codes, that part is packed apart from the
// Writer (see writeChanges) and must come out the same.
func TestChangedSetWithAFarMember(t *testing.T) {
	s := snapshot.MustSchema(12, 0, 0, snapshot.Field{Name: "x", Bits: 8}, snapshot.Field{Name: "y", Bits: 8})
	for f := range s.Fields {
		s.Fields[f].Code = bitpack.MustCode(1, 2, 3, 4, 5, 6, 7, 8, 8)
	}
	s.MaskCode = bitpack.MustCode(0, 2, 2, 1)
	c := MustCodec(s)
	base, cur := snapshot.New(s), snapshot.New(s)
	for i := range 4000 {
		mustAppend(t, base, snapshot.EntityID{Index: uint16(i)}, 10, 10)
		x := uint32(10)
		if i < 40 || i == 3999 {
			x = 12
		}
		mustAppend(t, cur, snapshot.EntityID{Index: uint16(i)}, x, 10)
	}
	roundTrip(t, c, 5, 4, base, cur)
	if c.Encoder.plan.maskMode || len(c.changed) != 41 {
		t.Fatalf("%d changed", len(c.changed))
	}
	// With a schema of generic fields the same set goes through the Writer.
	g := MustCodec(snapshot.MustSchema(12, 0, 0, snapshot.Field{Name: "x", Bits: 8}, snapshot.Field{Name: "y", Bits: 8}))
	roundTrip(t, g, 5, 4, base, cur)
}

// With a Mover, an entity it moves costs nothing where it is predicted,
// and one left at its baseline row is a change; the decoder puts an
// unchanged mover where it is predicted. Others are coded as always.
func TestMoversAsPredicted(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pred     snapshot.Predictor
		wantChgd []int32 // the baseline positions of the changed entities
		wantMask []uint32
	}{
		// Entity 0 moves and is where predicted, 1 moves and stayed, 2
		// does not move and stayed, 3 does not move and changed.
		{"mover", moverPredictor{}, []int32{1, 3}, []uint32{0b11, 0b1}},
		{"no mover", driftPredictor{}, []int32{0, 3}, []uint32{0b11, 0b1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := snapshot.MustSchema(9, 2, 0,
				snapshot.Field{Name: "x", Bits: 12}, snapshot.Field{Name: "y", Bits: 12},
				snapshot.Field{Name: "h", Bits: 6}, snapshot.Field{Name: "s", Bits: 2})
			s.Predictor = tc.pred
			c := MustCodec(s)
			base, cur := snapshot.New(s), snapshot.New(s)
			mustAppend(t, base, snapshot.EntityID{Index: 1}, 4090, 100, 1, 0)
			mustAppend(t, base, snapshot.EntityID{Index: 2}, 200, 200, 3, 0)
			mustAppend(t, base, snapshot.EntityID{Index: 3}, 300, 300, 2, 0)
			mustAppend(t, base, snapshot.EntityID{Index: 4}, 400, 400, 2, 0)
			const gap = 4
			mustAppend(t, cur, snapshot.EntityID{Index: 1}, (4090+gap)&4095, 100+3*gap, 1, 0) // wraps
			mustAppend(t, cur, snapshot.EntityID{Index: 2}, 200, 200, 3, 0)
			mustAppend(t, cur, snapshot.EntityID{Index: 3}, 300, 300, 2, 0)
			mustAppend(t, cur, snapshot.EntityID{Index: 4}, 401, 400, 2, 0)
			roundTrip(t, c, 10, 10-gap, base, cur)
			if len(c.changed) != len(tc.wantChgd) {
				t.Fatalf("changed %+v, want positions %v", c.changed, tc.wantChgd)
			}
			for k, ch := range c.changed {
				if ch.base != tc.wantChgd[k] || c.Encoder.chgPos[k] != tc.wantChgd[k] || ch.mask != tc.wantMask[k] {
					t.Fatalf("change %d: %+v at %d, want %d mask %#b", k, ch, c.Encoder.chgPos[k], tc.wantChgd[k], tc.wantMask[k])
				}
			}
		})
	}
}

// Both ends must agree on which rows move: a mover held at its baseline is
// coded as a change from its prediction, and a codec whose predictor
// predicts the same but is no Mover reads that change as a mask naming
// fields that keep their baseline values, and refuses the packet.
func TestMoverMaskKeepsPrediction(t *testing.T) {
	s := snapshot.MustSchema(9, 2, 0, snapshot.Field{Name: "x", Bits: 12}, snapshot.Field{Name: "y", Bits: 12}, snapshot.Field{Name: "h", Bits: 6})
	s.Predictor = moverPredictor{}
	c := MustCodec(s)
	base, cur := snapshot.New(s), snapshot.New(s)
	mustAppend(t, base, snapshot.EntityID{Index: 1}, 100, 100, 1)
	mustAppend(t, cur, snapshot.EntityID{Index: 1}, 100, 100, 1) // held at its baseline: x and y differ from (102, 106)
	p := c.AppendDelta(nil, 12, 10, base, cur)
	if len(c.changed) != 1 || c.changed[0].mask != 0b11 {
		t.Fatalf("changed %+v, want x and y of entity 0", c.changed)
	}
	plain := snapshot.MustSchema(9, 2, 0, snapshot.Field{Name: "x", Bits: 12}, snapshot.Field{Name: "y", Bits: 12}, snapshot.Field{Name: "h", Bits: 6})
	plain.Predictor = driftPredictor{}
	h, err := c.ReadHeader(p, 11)
	if err != nil {
		t.Fatal(err)
	}
	out := snapshot.New(plain)
	if err := MustCodec(plain).Decode(p, h, base, out); !errors.Is(err, ErrMalformed) {
		t.Fatalf("decoded without the mover: err %v, row %v", err, out.Row(0))
	}
}

// contextPredictor is moverPredictor as a Contexter: a row's context is
// its field 2 modulo 4, of 3 contexts (context 3 is out of range: read as
// 0).
type contextPredictor struct{ moverPredictor }

func (contextPredictor) Contexts() int             { return 3 }
func (contextPredictor) Context(base []uint32) int { return int(base[2] % 4) }

// contextDrift is driftPredictor as a Contexter, like contextPredictor.
type contextDrift struct{ driftPredictor }

func (contextDrift) Contexts() int             { return 3 }
func (contextDrift) Context(base []uint32) int { return int(base[2] % 4) }

// A schema's context codes must match its fields and its Contexter.
func TestContextCodesValidate(t *testing.T) {
	s := snapshot.MustSchema(9, 2, 0, snapshot.Field{Name: "x", Bits: 4}, snapshot.Field{Name: "y", Bits: 4}, snapshot.Field{Name: "k", Bits: 2})
	s.Predictor = contextPredictor{}
	four := bitpack.MustCode(1, 2, 3, 4, 4)
	for _, tc := range []struct {
		name string
		ctx  []snapshot.Codes
		ok   bool
	}{
		{"none", nil, true},
		{"one a context", []snapshot.Codes{{}, {Fields: []*bitpack.Code{four}}, {}}, true},
		{"too few contexts", []snapshot.Codes{{}, {}}, false},
		{"a code of the wrong width", []snapshot.Codes{{}, {Fields: []*bitpack.Code{nil, nil, four}}, {}}, false},
		{"too many fields", []snapshot.Codes{{}, {Fields: make([]*bitpack.Code, 4)}, {}}, false},
		{"a mask code of the wrong size", []snapshot.Codes{{Mask: four}, {}, {}}, false},
	} {
		s.Contexts = tc.ctx
		if err := s.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// FullLenAtLeast never exceeds FullLen, and is exact for a snapshot whose
// slot gaps all take one bit at order 0 (slots 0, 1, 2 ...).
func TestFullLenAtLeast(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	c := MustCodec(fuzzSchema)
	for n := range 100 {
		s := randomWorld(rng, fuzzSchema, n)
		if lo, full := c.FullLenAtLeast(s), c.FullLen(s); lo > full {
			t.Fatalf("%d entities: bound %d above FullLen %d", n, lo, full)
		}
	}
	dense := snapshot.New(fuzzSchema)
	for i := range 40 {
		dense.AppendUnchecked(snapshot.EntityID{Index: uint16(i)})
	}
	if lo, full := c.FullLenAtLeast(dense), c.FullLen(dense); lo != full {
		t.Errorf("slots 0 to 39: bound %d, FullLen %d, want equal", lo, full)
	}
}
