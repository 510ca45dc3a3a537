package server

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/interest"
	"github.com/sightline-game/sightline/netcode/view"
)

// Observer is where a player sees from, in the snapshot's quantized units
// (protocol.PosQuant): what the server needs to choose that player's view.
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
		c := protocol.PosQuant.Quantize(protocol.WorldSize / 2)
		return Observer{X: c, Y: c}
	}
	return Observer{X: protocol.PosQuant.Quantize(p.X), Y: protocol.PosQuant.Quantize(p.Y), Aim: p.Aim, Self: p.Slot, HasSelf: true}
}

// AppendCandidates appends to dst the members of o's area (rows of ents)
// with this tick's priorities, the game's rule for what matters most to a
// player: nearer is more urgent, what the player aims at (within about 20
// degrees) doubly so, and its own entity always goes. reach is the area's
// outer radius in quantized units.
func (o Observer) AppendCandidates(dst []view.Candidate, ents *interest.Entities, members []int32, reach uint32) []view.Candidate {
	r := float64(reach)
	ax, ay := math.Cos(o.Aim), math.Sin(o.Aim)
	for _, e := range members {
		dx, dy := float64(ents.Xs[e])-float64(o.X), float64(ents.Ys[e])-float64(o.Y)
		d := math.Hypot(dx, dy)
		near := max(0, 1-d/r)
		p := 1 + 4*near*near
		if d > 0 && (dx*ax+dy*ay)/d > 0.94 {
			p *= 2
		}
		dst = append(dst, view.Candidate{Row: e, Priority: float32(p), Must: o.HasSelf && ents.Slots[e] == o.Self})
	}
	return dst
}
