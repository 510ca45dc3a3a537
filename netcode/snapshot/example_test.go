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

// ExampleHeadingSteps predicts where a body moving 16 units a tick along
// its 10-bit heading is after 3 ticks, with integer arithmetic only, the
// same on every platform.
func ExampleHeadingSteps() {
	steps := snapshot.NewHeadingSteps(10, 16)
	for _, heading := range []uint32{0, 128, 256, 512} { // 0°, 45°, 90°, 180°
		x, y := steps.Advance(1000, 1000, heading, 3)
		fmt.Println(heading, x, y)
	}
	// Output:
	// 0 1048 1000
	// 128 1034 1034
	// 256 1000 1048
	// 512 952 1000
}
