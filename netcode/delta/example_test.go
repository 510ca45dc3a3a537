package delta_test

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Example sends tick 100 whole and tick 103 as a delta against it: two
// entities moved a little, one left and one arrived. The receiver reads each
// header to learn which baseline the packet needs, decodes the delta onto
// that baseline, and ends with exactly the sender's snapshot.
func Example() {
	schema := snapshot.MustSchema(8, 4, 0,
		snapshot.Field{Name: "x", Bits: 10},
		snapshot.Field{Name: "y", Bits: 10},
		snapshot.Field{Name: "hp", Bits: 7},
	)
	t100 := snapshot.New(schema)
	for i := range uint16(8) {
		_ = t100.Append(snapshot.EntityID{Index: 2 * i, Generation: 1}, uint32(100*i), 300, 100)
	}
	t103 := snapshot.New(schema)
	for i := range t100.Len() {
		row := t100.Row(i)
		switch t100.ID(i).Index {
		case 4: // moved right and was hit
			_ = t103.Append(t100.ID(i), row[0]+3, row[1], 80)
		case 6: // moved up
			_ = t103.Append(t100.ID(i), row[0], row[1]-2, row[2])
		case 10: // left
		default:
			_ = t103.Append(t100.ID(i), row...)
		}
	}
	_ = t103.Append(snapshot.EntityID{Index: 20, Generation: 1}, 512, 512, 100) // arrived

	// Sender: the client acknowledged tick 100, so tick 103 goes as a delta.
	send := delta.MustCodec(schema)
	full := send.AppendFull(nil, 100, t100)
	diff := send.AppendDelta(nil, 103, 100, t100, t103)
	fmt.Printf("full: %d bytes for %d entities\n", len(full), t100.Len())
	fmt.Printf("delta: %d bytes\n", len(diff))

	// Receiver.
	recv := delta.MustCodec(schema)
	baseline, got := snapshot.New(schema), snapshot.New(schema)
	h, err := recv.ReadHeader(full, 0)
	if err == nil {
		err = recv.Decode(full, h, nil, baseline)
	}
	fmt.Println("full tick", h.Tick, err)
	h, err = recv.ReadHeader(diff, h.Tick)
	if err == nil && h.Baseline == 100 {
		err = recv.Decode(diff, h, baseline, got)
	}
	fmt.Println("delta tick", h.Tick, "against", h.Baseline, err)
	fmt.Println("equal to the sender's:", got.Equal(t103), "entities changed:", got.Diff(baseline))
	// Output:
	// full: 39 bytes for 8 entities
	// delta: 15 bytes
	// full tick 100 <nil>
	// delta tick 103 against 100 <nil>
	// equal to the sender's: true entities changed: 4
}

// drift predicts that x grows by 3 units a tick, as glider does, but is
// no Mover: ExampleMover's plain predictor.
type drift struct{}

func (drift) Predict(base []uint32, gap, mask uint32, pred []uint32) {
	copy(pred, base)
	pred[0] += 3 * gap
}

// turret is the Spawner of ExampleSpawner's world: a turret (kind 0)
// fires shells (kind 1) that fly 5 units a tick along +x from it.
type turret struct{}

func (turret) Spawns(row []uint32) bool { return row[2] == 0 }

func (turret) Spawn(now, then []uint32, gap, age uint32, row, pred []uint32) {
	pred[0], pred[1], pred[2] = now[0]+5*(age+1), now[1], 1
}

func (turret) Age(now, child []uint32) (uint32, bool) {
	if child[2] != 1 || child[1] != now[1] || child[0] <= now[0] {
		return 0, false
	}
	return (child[0]-now[0])/5 - 1, true
}

// ExampleSpawner codes the shells that turrets fired since the baseline
// as made by their turrets: a shell costs a bit that says so, its maker's
// index, its age and the codewords of two exact guesses (its kind, the
// guess, is not written), where coded against the entity before it in
// slot order it costs the differences of its position.
func ExampleSpawner() {
	schema := func(spawner snapshot.Spawner) *snapshot.Schema {
		s := snapshot.MustSchema(8, 2, 0,
			snapshot.Field{Name: "x", Bits: 10},
			snapshot.Field{Name: "y", Bits: 10},
			snapshot.Field{Name: "kind", Bits: 1},
		)
		pos := bitpack.MustCode(1, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5)
		for f := range s.Fields[:2] {
			s.Fields[f].NewCode, s.Fields[f].SpawnCode = pos, pos
		}
		s.Fields[2].NewCode = bitpack.MustCode(1, 1) // a made entity's kind is not written: the guess
		s.Spawner = spawner
		return s
	}
	for _, spawner := range []snapshot.Spawner{nil, turret{}} {
		s := schema(spawner)
		base, cur := snapshot.New(s), snapshot.New(s)
		for i := range uint16(4) { // four turrets in a column
			_ = base.Append(snapshot.EntityID{Index: i}, 100, 100+200*uint32(i), 0)
			_ = cur.Append(snapshot.EntityID{Index: i}, 100, 100+200*uint32(i), 0)
		}
		// Two ticks later: turrets 1 and 3 fired on the last tick, turret 2
		// on this one.
		_ = cur.Append(snapshot.EntityID{Index: 10}, 110, 300, 1)
		_ = cur.Append(snapshot.EntityID{Index: 11}, 105, 500, 1)
		_ = cur.Append(snapshot.EntityID{Index: 12}, 110, 700, 1)

		c := delta.MustCodec(s)
		p := c.AppendDelta(nil, 102, 100, base, cur)
		got := snapshot.New(s)
		h, err := c.ReadHeader(p, 102)
		if err == nil {
			err = c.Decode(p, h, base, got)
		}
		fmt.Printf("spawner %v: new entities %d bits, delta %d bytes, decoded %v %v\n",
			spawner != nil, c.LastSizes().New, len(p), got.Equal(cur), err)
	}
	// Output:
	// spawner false: new entities 88 bits, delta 14 bytes, decoded true <nil>
	// spawner true: new entities 44 bits, delta 9 bytes, decoded true <nil>
}

// glider is a Mover: every entity glides 3 units a tick along x, exactly.
type glider struct{}

func (glider) Predict(base []uint32, gap, mask uint32, pred []uint32) {
	copy(pred, base)
	pred[0] += 3 * gap
}

func (glider) Moves(row []uint32) bool { return true }

// ExampleMover codes entities that glide exactly as their predictor says:
// with a plain predictor each glide is a change, with a Mover it costs
// nothing, and only the entity that stopped is written.
func ExampleMover() {
	schema := func(p snapshot.Predictor) *snapshot.Schema {
		s := snapshot.MustSchema(8, 0, 0, snapshot.Field{Name: "x", Bits: 12}, snapshot.Field{Name: "y", Bits: 12})
		s.Predictor = p
		return s
	}
	base, cur := snapshot.New(schema(nil)), snapshot.New(schema(nil))
	for i := range 40 {
		x := uint32(100 * i)
		_ = base.Append(snapshot.EntityID{Index: uint16(i)}, x, 500)
		if i == 7 {
			x -= 3 * 4 // stopped: it will be where it was
		}
		_ = cur.Append(snapshot.EntityID{Index: uint16(i)}, x+3*4, 500)
	}
	for _, p := range []snapshot.Predictor{drift{}, glider{}} {
		name := "a plain predictor"
		if _, ok := p.(snapshot.Mover); ok {
			name = "a Mover"
		}
		c := delta.MustCodec(schema(p))
		packet := c.AppendDelta(nil, 14, 10, base, cur)
		out := snapshot.New(schema(p))
		h, _ := c.ReadHeader(packet, 10)
		err := c.Decode(packet, h, base, out)
		fmt.Printf("%s: %d bytes, %v, decoded as sent: %v\n", name, len(packet), err, out.Equal(cur))
	}
	// Output:
	// a plain predictor: 20 bytes, <nil>, decoded as sent: true
	// a Mover: 7 bytes, <nil>, decoded as sent: true
}
