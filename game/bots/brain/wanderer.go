package brain

import (
	"math"
	"math/rand/v2"

	"github.com/sightline-game/sightline/game/arena"
)

// Wanderer turns a seed into a player's wishes, one input a tick: walk
// somewhere, change your mind now and then, look around, fire sometimes.
type Wanderer struct {
	rng   *rand.Rand
	in    arena.Input
	until int
	n     int
}

// NewWanderer returns a wanderer; the same seed wanders the same way.
func NewWanderer(seed uint64) *Wanderer {
	return &Wanderer{rng: rand.New(rand.NewPCG(seed, 0x62_6f_74))}
}

// Next returns the input for the next tick.
func (w *Wanderer) Next() arena.Input {
	w.n++
	if w.n >= w.until {
		a := w.rng.Float64() * 2 * math.Pi
		speed := 127.0
		if w.rng.IntN(4) == 0 {
			speed = 0 // stand still a while
		}
		w.in.MoveX = int8(speed * math.Cos(a))
		w.in.MoveY = int8(speed * math.Sin(a))
		w.until = w.n + 15 + w.rng.IntN(60)
	}
	w.in.Aim += (w.rng.Float64() - 0.5) * 0.3
	w.in.Buttons = 0
	if w.rng.IntN(10) == 0 {
		w.in.Buttons = arena.ButtonFire
	}
	return w.in
}
