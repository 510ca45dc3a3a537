package delta_test

// Tests of codecs whose codes are trained on their own traffic (package
// train, which imports delta: hence tests outside the package, with the
// helpers export_test.go exports).

import (
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/delta/train"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Schemas with codes and a predictor round-trip like generic ones: codes
// trained on their own traffic, a mask code, and values that the codes
// must carry in two writes (a 32-bit field); with a Mover too.
func TestRoundTripsWithCodesAndPredictor(t *testing.T) {
	for _, pred := range []snapshot.Predictor{delta.DriftPredictor{}, delta.MoverPredictor{}} {
		testRoundTripsWithCodes(t, pred)
	}
}

func testRoundTripsWithCodes(t *testing.T, pred snapshot.Predictor) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, widths := range [][]uint8{{12, 12, 6, 2}, {32, 20, 3}, {16, 16, 10, 2, 4, 7}} {
		fields := make([]snapshot.Field, len(widths))
		for f, w := range widths {
			fields[f] = snapshot.Field{Name: "f", Bits: w}
		}
		s := snapshot.MustSchema(9, 2, 0, fields...)
		s.Predictor = pred
		tl, err := train.NewTally(s)
		if err != nil {
			t.Fatal(err)
		}
		base := delta.RandomWorld(rng, s, 200)
		for range 20 {
			tl.Add(base, delta.Evolve(rng, base, 0.5), 2)
		}
		useTrainedCodes(t, tl, s)
		s.Check = len(widths) == 6 // one schema with check bytes
		c := delta.MustCodec(s)
		for run := range 40 {
			cur := delta.RandomWorld(rng, s, rng.IntN(300))
			delta.RoundTrip(t, c, uint32(run+1), 0, nil, cur)
			for step := range 4 {
				next := delta.Evolve(rng, cur, []float64{0, 0.05, 0.5, 1}[step])
				delta.RoundTrip(t, c, uint32(1000+step), uint32(1000+step-1-rng.IntN(3)), cur, next)
				cur = next
			}
		}
	}
}

// trainContexts gives s, whose Predictor is a Contexter, the codes of
// each context trained on deltas of random worlds that evolve by evolve.
func trainContexts(t *testing.T, s *snapshot.Schema, rng *rand.Rand, evolve func(*snapshot.Snapshot) *snapshot.Snapshot) {
	t.Helper()
	tl, err := train.NewTally(s)
	if err != nil {
		t.Fatal(err)
	}
	base := delta.RandomWorld(rng, s, 200)
	for range 20 {
		tl.Add(base, evolve(base), 2)
	}
	s.Contexts = make([]snapshot.Codes, tl.Contexts())
	for k := range s.Contexts {
		s.Contexts[k].Fields = make([]*bitpack.Code, len(s.Fields))
		for f := range s.Fields {
			l, err := tl.ContextLengths(k, f, bitpack.MaxCodeLen)
			if err != nil {
				t.Fatal(err)
			}
			s.Contexts[k].Fields[f] = bitpack.MustCode(l...)
		}
		l, err := tl.ContextMaskLengths(k, bitpack.MaxCodeLen)
		if err != nil {
			t.Fatal(err)
		}
		s.Contexts[k].Mask = bitpack.MustCode(l...)
	}
}

// A Contexter's entities are coded with their context's codes: deltas
// round-trip, and where contexts change differently (context 1 jumps far,
// the others creep), codes per context write fewer bits than one code for
// all, which the tally counts the same.
func TestContextCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	s := snapshot.MustSchema(9, 2, 0,
		snapshot.Field{Name: "x", Bits: 16}, snapshot.Field{Name: "y", Bits: 16}, snapshot.Field{Name: "k", Bits: 4})
	s.Predictor = delta.ContextDrift{}
	step := func(b *snapshot.Snapshot) *snapshot.Snapshot {
		cur := snapshot.New(b.Schema())
		cur.CopyFrom(b)
		for i := range cur.Len() {
			row := cur.Row(i)
			if rng.IntN(2) == 0 {
				continue
			}
			d := uint32(rng.IntN(3)) + 1
			if row[2]%4 == 1 {
				d = uint32(rng.IntN(1 << 14))
			}
			row[0] = (row[0] + d) & 0xffff
		}
		return cur
	}
	tl, err := train.NewTally(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range [...]*snapshot.Snapshot{delta.RandomWorld(rng, s, 200), delta.RandomWorld(rng, s, 200)} {
		tl.Add(w, step(w), 2)
	}
	useTrainedCodes(t, tl, s)
	one := *s // the same codes for every context
	one.Contexts = nil
	trainContexts(t, s, rng, step)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	byCtx, all := delta.MustCodec(s), delta.MustCodec(&one)
	var bits [2]int
	for run := range 20 {
		base := delta.RandomWorld(rng, s, 150+rng.IntN(100))
		cur := step(base)
		for i, c := range []*delta.Codec{byCtx, all} {
			bits[i] += delta.RoundTrip(t, c, uint32(100+run), 98, base, cur)
		}
	}
	t.Logf("codes per context: %d bytes, one code: %d", bits[0], bits[1])
	if bits[0] >= bits[1]*95/100 {
		t.Errorf("codes per context: %d bytes, one code: %d: want at least 5 %% fewer", bits[0], bits[1])
	}
}

// useTrainedCodes gives every field of s and its masks the codes tl trained.
func useTrainedCodes(t testing.TB, tl *train.Tally, s *snapshot.Schema) {
	t.Helper()
	for f := range s.Fields {
		l, err := tl.Lengths(f, bitpack.MaxCodeLen)
		if err != nil {
			t.Fatal(err)
		}
		s.Fields[f].Code = bitpack.MustCode(l...)
	}
	l, err := tl.MaskLengths(bitpack.MaxCodeLen)
	if err != nil {
		t.Fatal(err)
	}
	s.MaskCode = bitpack.MustCode(l...)
}
