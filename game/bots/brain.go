package bots

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// How a Brain fights.
const (
	// FireRange is the farthest a bot shoots at, in px.
	FireRange = 500
	// KeepDistance is how far a bot likes to stay from its target, in px;
	// within KeepBand of it the bot circles instead.
	KeepDistance = 200
	KeepBand     = 40
	// AimTolerance is how far off its target a bot's aim may be when it
	// fires, in radians (about 6°).
	AimTolerance = 0.1
	// MaxTurn is how far a bot turns its aim in one tick, in radians: a bot
	// aims like a hand on a mouse, not instantly.
	MaxTurn = 0.3
)

// View is what a Brain reads from its headless client: the slot of its own
// entity (once the server said) and the newest decoded snapshot.
// *client.Client is one.
type View interface {
	Self() (slot uint16, ok bool)
	Newest() (tick uint32, state *snapshot.Snapshot)
}

// Brain plays the arena from what its client decoded: it picks the nearest
// live player or creature in view that is not itself, turns its aim towards
// it, fires when roughly aligned and within FireRange, and closes in to
// about KeepDistance (backing off when nearer, circling in between). With
// nothing in view it wanders. A bot that keeps pushing without moving (a
// wall in the way) takes a short detour in a random direction.
type Brain struct {
	wander *Wanderer

	aim               float64
	self              uint16
	hasSelf           bool
	strafe            float64 // +1 or -1: which way it circles
	lastX, lastY      float64
	pushed            bool // the last input asked to move
	stuck, detour     int
	detourX, detourY  int8
	strafeUntil, tick int
}

// NewBrain returns a brain; the same seed wanders the same way.
func NewBrain(seed uint64) *Brain {
	return &Brain{wander: NewWanderer(seed), strafe: 1}
}

// SetSelf tells the brain its own slot, for a View that does not know it.
func (b *Brain) SetSelf(slot uint16) { b.self, b.hasSelf = slot, true }

// Play returns the input for the next tick from what v holds: the Brain's
// decision when v knows the bot's slot (or SetSelf was called) and has a
// snapshot, else the Wanderer's.
func (b *Brain) Play(v View) protocol.Input {
	self, ok := v.Self()
	if !ok {
		self, ok = b.self, b.hasSelf
	}
	_, state := v.Newest()
	if !ok || state == nil {
		in := b.wander.Next()
		b.aim = in.Aim
		return in
	}
	return b.Next(self, state)
}

// Next returns the input for the next tick, given the slot of the bot's own
// entity and the newest state it decoded.
func (b *Brain) Next(self uint16, view *snapshot.Snapshot) protocol.Input {
	b.tick++
	i, ok := -1, false
	if view != nil {
		i, ok = view.Find(self)
	}
	if !ok || view.Value(i, arena.FieldKind) != arena.KindPlayer {
		return b.roam()
	}
	if view.Value(i, arena.FieldState)&arena.StateDead != 0 {
		b.pushed = false
		return protocol.Input{Aim: b.aim} // dead: wait
	}
	x, y := pos(view, i)
	b.checkStuck(x, y)

	target, best := -1, math.Inf(1)
	for j := range view.Len() {
		if j == i || !isTarget(view, j) {
			continue
		}
		tx, ty := pos(view, j)
		if d := math.Hypot(tx-x, ty-y); d < best {
			target, best = j, d
		}
	}
	if target < 0 {
		return b.roam()
	}
	tx, ty := pos(view, target)
	want := math.Atan2(ty-y, tx-x)
	b.aim = turn(b.aim, want, MaxTurn)
	in := protocol.Input{Aim: b.aim}
	if math.Abs(angleDiff(b.aim, want)) <= AimTolerance && best <= FireRange {
		in.Buttons = protocol.ButtonFire
	}
	if b.detour > 0 {
		b.detour--
		in.MoveX, in.MoveY = b.detourX, b.detourY
	} else {
		ux, uy := (tx-x)/best, (ty-y)/best
		switch {
		case best > KeepDistance+KeepBand:
		case best < KeepDistance-KeepBand:
			ux, uy = -ux, -uy
		default:
			if b.tick >= b.strafeUntil { // change the way it circles now and then
				b.strafe = -b.strafe
				b.strafeUntil = b.tick + 45 + b.wander.rng.IntN(60)
			}
			ux, uy = -uy*b.strafe, ux*b.strafe
		}
		in.MoveX, in.MoveY = int8(math.Round(127*ux)), int8(math.Round(127*uy))
	}
	b.pushed = in.MoveX != 0 || in.MoveY != 0
	return in
}

// roam wanders without firing (nothing to shoot at).
func (b *Brain) roam() protocol.Input {
	in := b.wander.Next()
	in.Buttons = 0
	if b.detour > 0 {
		b.detour--
		in.MoveX, in.MoveY = b.detourX, b.detourY
	}
	b.aim = in.Aim
	b.pushed = in.MoveX != 0 || in.MoveY != 0
	return in
}

// checkStuck starts a detour after a few ticks of pushing without moving.
func (b *Brain) checkStuck(x, y float64) {
	if b.pushed && math.Hypot(x-b.lastX, y-b.lastY) < 0.5 {
		b.stuck++
	} else {
		b.stuck = 0
	}
	b.lastX, b.lastY = x, y
	if b.stuck >= 5 && b.detour == 0 {
		a := b.wander.rng.Float64() * 2 * math.Pi
		b.detourX, b.detourY = int8(127*math.Cos(a)), int8(127*math.Sin(a))
		b.detour = 20
		b.stuck = 0
	}
}

func isTarget(view *snapshot.Snapshot, j int) bool {
	switch view.Value(j, arena.FieldKind) {
	case arena.KindCreature:
		return true
	case arena.KindPlayer:
		return view.Value(j, arena.FieldState)&arena.StateDead == 0
	}
	return false
}

func pos(view *snapshot.Snapshot, i int) (float64, float64) {
	return arena.PosQuant.Dequantize(view.Value(i, arena.FieldX)), arena.PosQuant.Dequantize(view.Value(i, arena.FieldY))
}

// angleDiff returns b - a wrapped into [-π, π).
func angleDiff(a, b float64) float64 {
	d := math.Mod(b-a+math.Pi, 2*math.Pi)
	if d < 0 {
		d += 2 * math.Pi
	}
	return d - math.Pi
}

// turn moves angle a towards b by at most step.
func turn(a, b, step float64) float64 {
	d := angleDiff(a, b)
	if math.Abs(d) <= step {
		return b
	}
	return a + math.Copysign(step, d)
}
