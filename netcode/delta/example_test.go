package delta_test

import (
	"fmt"

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
