package snapshot_test

import (
	"errors"
	"fmt"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Example describes entities with three quantized fields, fills one tick's
// snapshot in slot order, and compares it with a copy by hash: server and
// client hash the same tick to detect a desync without sending the state.
func Example() {
	schema := snapshot.MustSchema(8, 4, 0, // 256 slots, 16 generations, room for all
		snapshot.Field{Name: "x", Bits: 10},
		snapshot.Field{Name: "y", Bits: 10},
		snapshot.Field{Name: "hp", Bits: 7},
	)
	fmt.Println("bits per entity:", schema.EntityBits())

	snap := snapshot.New(schema)
	_ = snap.Append(snapshot.EntityID{Index: 3, Generation: 1}, 100, 200, 100)
	_ = snap.Append(snapshot.EntityID{Index: 9, Generation: 2}, 512, 40, 75)
	err := snap.Append(snapshot.EntityID{Index: 5}, 0, 0, 0) // slots must increase
	fmt.Println(errors.Is(err, snapshot.ErrOrder))
	err = snap.Append(snapshot.EntityID{Index: 12}, 0, 0, 200) // hp holds 0..127
	fmt.Println(errors.Is(err, snapshot.ErrRange))

	if i, ok := snap.Find(9); ok {
		fmt.Println(snap.ID(i), snap.Row(i))
	}

	client := snapshot.New(schema)
	client.CopyFrom(snap)
	fmt.Println("in sync:", client.Hash() == snap.Hash())
	client.Row(0)[2] = 99 // the client got entity 3's health wrong
	fmt.Println("in sync:", client.Hash() == snap.Hash(), "entities differing:", client.Diff(snap))
	// Output:
	// bits per entity: 27
	// true
	// true
	// 9/2 [512 40 75]
	// in sync: true
	// in sync: false entities differing: 1
}
