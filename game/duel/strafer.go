package duel

import (
	"math"
	"math/rand/v2"

	"github.com/sightline-game/sightline/game/arena"
)

// Strafer is the target: it runs at full speed in a random direction,
// changing it every 0.3 to 1 s, and heads back toward its anchor whenever
// it strays more than StrafeRadius from it.
type Strafer struct {
	side   *side
	rng    *rand.Rand
	anchor point
	dx, dy float64 // the direction, a unit vector
	turnIn int     // ticks until the next change
	out    bool    // heading back to the anchor
}

// Strafe timing, in ticks.
const (
	minTurnTicks = arena.TickRate * 3 / 10
	maxTurnTicks = arena.TickRate
)

func newStrafer(s *side, seed uint64) *Strafer {
	return &Strafer{side: s, rng: rand.New(rand.NewPCG(seed, 0x57a4fe))}
}

// startAt makes anchor the centre of the strafing.
func (st *Strafer) startAt(anchor point) { st.anchor, st.turnIn, st.out = anchor, 0, false }

// next returns the stick for the next tick of strafing.
func (st *Strafer) next() (int8, int8) {
	p := st.side.position()
	switch outside := dist(p, st.anchor) > StrafeRadius; {
	case outside && !st.out:
		// Back toward the anchor, give or take 45°, until the next change.
		a := math.Atan2(st.anchor.y-p.y, st.anchor.x-p.x) + (st.rng.Float64()-0.5)*math.Pi/2
		st.dy, st.dx = math.Sincos(a)
		st.out = true
		st.turnIn = st.turnTicks()
	case st.turnIn <= 0:
		st.dy, st.dx = math.Sincos(st.rng.Float64() * 2 * math.Pi)
		st.out = false
		st.turnIn = st.turnTicks()
	case !outside:
		st.out = false
	}
	st.turnIn--
	return int8(math.Round(127 * st.dx)), int8(math.Round(127 * st.dy))
}

func (st *Strafer) turnTicks() int { return minTurnTicks + st.rng.IntN(maxTurnTicks-minTurnTicks+1) }
