package train_test

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/delta/train"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// drift predicts that x grows by 3 units a tick, the way the entities of
// ExampleTally move.
type drift struct{}

func (drift) Predict(base []uint32, gap, mask uint32, pred []uint32) {
	copy(pred, base)
	pred[0] += 3 * gap
}

// ExampleTally trains the codes of a schema on its own traffic: entities
// that drift 3 units a tick along x, and now and then step along y. With
// the predictor and the trained codes, a drift costs a few bits.
func ExampleTally() {
	schema := func() *snapshot.Schema {
		return snapshot.MustSchema(8, 0, 0, snapshot.Field{Name: "x", Bits: 12}, snapshot.Field{Name: "y", Bits: 12})
	}
	world := func(tick int) *snapshot.Snapshot { // 50 entities, the same in any schema
		s := snapshot.New(schema())
		for i := range 50 {
			y := uint32(100 + i + tick/(3+i%5))
			_ = s.Append(snapshot.EntityID{Index: uint16(i)}, uint32(10*i+3*tick)&4095, y)
		}
		return s
	}
	trained := schema()
	trained.Predictor = drift{}
	tally, _ := train.NewTally(trained)
	for tick := 1; tick < 100; tick++ {
		tally.Add(world(tick), world(tick+2), 2)
	}
	for f := range trained.Fields {
		lengths, _ := tally.Lengths(f, 8)
		trained.Fields[f].Code = bitpack.MustCode(lengths...)
	}
	masks, _ := tally.MaskLengths(8)
	trained.MaskCode = bitpack.MustCode(masks...)

	generic, coded := delta.MustCodec(schema()), delta.MustCodec(trained)
	base, cur := world(200), world(202)
	fmt.Println("generic:", len(generic.AppendDelta(nil, 202, 200, base, cur)), "bytes")
	fmt.Println("trained:", len(coded.AppendDelta(nil, 202, 200, base, cur)), "bytes")
	// Output:
	// generic: 62 bytes
	// trained: 26 bytes
}

// byKind is a Predictor that guesses nothing (the baseline row) and, as a
// snapshot.Contexter, sorts entities into two contexts by their kind
// (field 1): crawlers (0) creep, runners (1) dash.
type byKind struct{}

func (byKind) Predict(base []uint32, gap, mask uint32, pred []uint32) { copy(pred, base) }
func (byKind) Contexts() int                                          { return 2 }
func (byKind) Context(base []uint32) int                              { return int(base[1]) }

// ExampleTally_contexts trains codes per context: crawlers move 1 or 2 units a
// tick, runners 40 to 90. One code for both pays for the runners' wide
// steps on every crawler; a code per kind does not.
func ExampleTally_contexts() {
	schema := snapshot.MustSchema(8, 0, 0,
		snapshot.Field{Name: "x", Bits: 12},
		snapshot.Field{Name: "kind", Bits: 1},
	)
	schema.Predictor = byKind{}
	world := func(tick uint32) *snapshot.Snapshot {
		s := snapshot.New(schema)
		for i := range uint32(60) {
			kind := uint32(0)
			step := 1 + i%2
			if i%4 == 0 {
				kind, step = 1, 40+i%51
			}
			_ = s.Append(snapshot.EntityID{Index: uint16(i)}, (100*i+step*tick)%4096, kind)
		}
		return s
	}
	tally, _ := train.NewTally(schema)
	for tick := uint32(1); tick < 50; tick++ {
		tally.Add(world(tick), world(tick+2), 2)
	}
	// One code for every entity, then one per context.
	l, _ := tally.Lengths(0, 12)
	schema.Fields[0].Code = bitpack.MustCode(l...)
	schema.Fields[1].Code = bitpack.MustCode(1, 1)
	l, _ = tally.MaskLengths(12)
	schema.MaskCode = bitpack.MustCode(l...)
	oneCode := *schema
	schema.Contexts = make([]snapshot.Codes, tally.Contexts())
	for k := range schema.Contexts {
		l, _ := tally.ContextLengths(k, 0, 12)
		schema.Contexts[k].Fields = []*bitpack.Code{bitpack.MustCode(l...)}
	}

	base, cur := world(100), world(102)
	one := delta.MustCodec(&oneCode).AppendDelta(nil, 102, 100, base, cur)
	c := delta.MustCodec(schema)
	perKind := c.AppendDelta(nil, 102, 100, base, cur)
	fmt.Printf("one code: %d bytes, a code per kind: %d bytes\n", len(one), len(perKind))

	out := snapshot.New(schema)
	h, err := c.ReadHeader(perKind, 101)
	if err == nil {
		err = c.Decode(perKind, h, base, out)
	}
	fmt.Println("decoded:", err, out.Equal(cur))
	// Output:
	// one code: 61 bytes, a code per kind: 58 bytes
	// decoded: <nil> true
}
