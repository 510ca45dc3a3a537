package delta

import (
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// fuzzSchema is small enough that random bytes often reach deep into a packet.
var fuzzSchema = snapshot.MustSchema(7, 2, 100,
	snapshot.Field{Name: "x", Bits: 12}, snapshot.Field{Name: "y", Bits: 12},
	snapshot.Field{Name: "h", Bits: 6}, snapshot.Field{Name: "s", Bits: 2})

// codedFuzzSchema is fuzzSchema with residual codes, a mask code and a
// predictor: the path a game's schema takes.
func codedFuzzSchema() *snapshot.Schema {
	s := snapshot.MustSchema(7, 2, 100,
		snapshot.Field{Name: "x", Bits: 12}, snapshot.Field{Name: "y", Bits: 12},
		snapshot.Field{Name: "h", Bits: 6}, snapshot.Field{Name: "s", Bits: 2})
	pos := bitpack.MustCode(3, 2, 3, 3, 3, 4, 5, 6, 7, 8, 9, 10, 10)
	s.Fields[0].Code, s.Fields[1].Code = pos, pos
	s.Fields[2].Code = bitpack.MustCode(4, 2, 2, 3, 3, 5, 5)
	s.Fields[3].Code = bitpack.MustCode(2, 1, 2)
	s.MaskCode = bitpack.MustCode(0, 3, 4, 2, 4, 4, 5, 3, 5, 5, 6, 5, 6, 6, 7, 7)
	s.Predictor = driftPredictor{}
	s.Check = true
	return s
}

func FuzzDecodeFull(f *testing.F) {
	c := MustCodec(fuzzSchema)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 5, 60, 100} {
		f.Add(c.AppendFull(nil, uint32(n+1), randomWorld(rng, fuzzSchema, n)))
	}
	out := snapshot.New(fuzzSchema)
	again := snapshot.New(fuzzSchema)
	f.Fuzz(func(t *testing.T, p []byte) {
		h, err := c.ReadHeader(p, 0)
		if err != nil {
			return
		}
		if err := c.Decode(p, h, nil, out); err != nil {
			return
		}
		// Decoded state re-encodes to a packet that decodes to the same state.
		q := c.AppendFull(nil, h.Tick, out)
		h2, err := c.ReadHeader(q, 0)
		if err != nil || h2 != h {
			t.Fatalf("re-encoded header %+v (%v), want %+v", h2, err, h)
		}
		if err := c.Decode(q, h2, nil, again); err != nil || !again.Equal(out) {
			t.Fatalf("re-encoded full snapshot: %v, equal %v", err, again.Equal(out))
		}
		if len(q) > len(p) {
			t.Fatalf("canonical encoding %d bytes is longer than the %d-byte input", len(q), len(p))
		}
	})
}

func FuzzDecodeDelta(f *testing.F) {
	c := MustCodec(fuzzSchema)
	rng := rand.New(rand.NewPCG(3, 4))
	base := randomWorld(rng, fuzzSchema, 60)
	const newest = 500
	for i := range 6 {
		cur := evolve(rng, base, float64(i)/5)
		f.Add(c.AppendDelta(nil, newest+uint32(i), newest-1, base, cur))
	}
	fuzzRoundTrip(f, c, base, newest)
}

func FuzzDecodeDeltaCoded(f *testing.F) { fuzzDecodeDelta(f, codedFuzzSchema()) }

// FuzzDecodeDeltaMoved is FuzzDecodeDeltaCoded with a Mover: survivors it
// moves are coded against their prediction.
func FuzzDecodeDeltaMoved(f *testing.F) {
	s := codedFuzzSchema()
	s.Predictor = moverPredictor{}
	fuzzDecodeDelta(f, s)
}

func fuzzDecodeDelta(f *testing.F, s *snapshot.Schema) {
	c := MustCodec(s)
	rng := rand.New(rand.NewPCG(5, 6))
	base := randomWorld(rng, s, 60)
	const newest = 500
	for i := range 6 {
		cur := evolve(rng, base, float64(i)/5)
		f.Add(c.AppendDelta(nil, newest+uint32(i), newest-1, base, cur))
	}
	fuzzRoundTrip(f, c, base, newest)
}

// FuzzDecodeDeltaContexts is FuzzDecodeDeltaMoved with a Contexter and
// codes per context: the schema's codes with their lengths reversed.
func FuzzDecodeDeltaContexts(f *testing.F) {
	s := codedFuzzSchema()
	s.Predictor = contextPredictor{}
	s.Contexts = []snapshot.Codes{
		{},
		{Mask: bitpack.MustCode(0, 7, 7, 6, 6, 5, 6, 5, 5, 3, 5, 4, 4, 2, 4, 3), Fields: []*bitpack.Code{bitpack.MustCode(10, 10, 9, 8, 7, 6, 5, 4, 3, 3, 3, 2, 3)}},
		{Fields: []*bitpack.Code{nil, nil, bitpack.MustCode(5, 5, 3, 3, 2, 2, 4)}},
	}
	fuzzDecodeDelta(f, s)
}

// fuzzRoundTrip fuzzes c's deltas against base: a packet that decodes
// encodes again to a packet with the same header that decodes to the same
// snapshot. newest is the receiver's newest tick.
func fuzzRoundTrip(f *testing.F, c *Codec, base *snapshot.Snapshot, newest uint32) {
	out := snapshot.New(c.Schema())
	again := snapshot.New(c.Schema())
	f.Fuzz(func(t *testing.T, p []byte) {
		h, err := c.ReadHeader(p, newest)
		if err != nil || h.Full() {
			return
		}
		if err := c.Decode(p, h, base, out); err != nil {
			return
		}
		q := c.AppendDelta(nil, h.Tick, h.Baseline, base, out)
		h2, err := c.ReadHeader(q, newest)
		if err != nil || h2 != h {
			t.Fatalf("re-encoded header %+v (%v), want %+v", h2, err, h)
		}
		if err := c.Decode(q, h2, base, again); err != nil || !again.Equal(out) {
			t.Fatalf("re-encoded delta: %v, equal %v", err, again.Equal(out))
		}
	})
}
