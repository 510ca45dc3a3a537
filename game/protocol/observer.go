package protocol

import "github.com/sightline-game/sightline/game/arena"

// Observer is where a player sees from, in the snapshot's quantized units:
// what the server needs to choose that player's view.
type Observer struct {
	X, Y    uint32
	Aim     float64 // radians: what the player aims at matters more
	Self    uint16  // the slot of its own entity, always sent when it changes
	HasSelf bool
}

// Observe returns where player id of w sees from: its quantized position,
// aim and slot. A player not in the match sees from the middle, without a
// self.
func Observe(w *arena.World, id arena.PlayerID) Observer {
	p, ok := w.Pose(id)
	if !ok {
		c := PosQuant.Quantize(WorldSize / 2)
		return Observer{X: c, Y: c}
	}
	return Observer{X: PosQuant.Quantize(p.X), Y: PosQuant.Quantize(p.Y), Aim: p.Aim, Self: p.Slot, HasSelf: true}
}
