package view_test

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/view"
)

// Example runs three ticks of one client whose budget (1200 bytes a second
// at 30 ticks a second: 40 bytes a tick) cannot carry all twelve entities
// in its area at once. The client's own entity (slot 0) must go; the rest go
// highest priority first, and those left over wait, their priority
// accumulating, for the next ticks, whose packets are deltas against the
// view the client acknowledged: unchanged entities cost nothing.
func Example() {
	schema := snapshot.MustSchema(6, 2, 0, snapshot.Field{Name: "x", Bits: 16}, snapshot.Field{Name: "y", Bits: 16})
	ring := view.NewWorldRing(schema, 16)
	sender, err := view.NewSender(view.NewShared(ring, delta.MustCodec(schema)), view.Config{History: 8, Rate: 1200, TickRate: 30})
	if err != nil {
		fmt.Println(err) // a budget below view.MinRate is refused
		return
	}

	for tick := uint32(1); tick <= 3; tick++ {
		world := ring.Begin(tick)
		for slot := range uint16(12) {
			_ = world.Append(snapshot.EntityID{Index: slot}, 1000*uint32(slot), 500) // nobody moves
		}
		ring.Commit(tick)

		cands := make([]view.Candidate, world.Len())
		for row := range cands {
			// Nearer entities (lower slots here) matter more.
			cands[row] = view.Candidate{Row: int32(row), Priority: 12 - float32(row), Must: row == 0}
		}
		pkt, rep := sender.Append(nil, tick, cands)
		sent := sender.LastView()
		fmt.Printf("tick %d: %d bytes, sent %d, deferred %d, in view %d:", tick, len(pkt), rep.Sent, rep.Deferred, rep.InView)
		for i := range sent.Len() {
			fmt.Printf(" %d", sent.ID(i).Index)
		}
		fmt.Println()
		sender.Ack(tick)
	}
	// Output:
	// tick 1: 27 bytes, sent 5, deferred 7, in view 5: 0 1 2 3 4
	// tick 2: 27 bytes, sent 5, deferred 2, in view 10: 0 1 2 3 4 5 6 7 8 9
	// tick 3: 14 bytes, sent 2, deferred 0, in view 12: 0 1 2 3 4 5 6 7 8 9 10 11
}
