package tag

import (
	"math"
	"math/rand/v2"
)

// Bot plays a client: as "it" it chases the nearest runner it sees; else it
// runs from "it" when it sees it near, and wanders otherwise. It reads only
// what its client decoded.
type Bot struct {
	rng     *rand.Rand
	heading float64
}

// NewBot returns a bot whose wandering follows seed.
func NewBot(seed uint64) *Bot {
	r := rand.New(rand.NewPCG(seed, 0xb07))
	return &Bot{rng: r, heading: r.Float64() * 2 * math.Pi}
}

// Next returns the bot's input for its client's newest state.
func (b *Bot) Next(c *Client) Input {
	b.heading += (b.rng.Float64() - 0.5) * 0.6
	slot, _, ok := c.Self()
	_, snap := c.Newest()
	it, known := c.It()
	if !ok || snap == nil || !known {
		return Input{Heading: b.heading, Run: true}
	}
	me, ok := snap.Find(slot)
	if !ok {
		return Input{Heading: b.heading, Run: true}
	}
	mx, my := posQuant.Dequantize(snap.Value(me, FieldX)), posQuant.Dequantize(snap.Value(me, FieldY))
	best, bx, by := math.Inf(1), 0.0, 0.0
	for i := range snap.Len() {
		id := snap.ID(i)
		if i == me || (it.Slot != slot && id.Index != it.Slot) {
			continue // "it" looks at everyone, the others at "it"
		}
		x, y := posQuant.Dequantize(snap.Value(i, FieldX)), posQuant.Dequantize(snap.Value(i, FieldY))
		if d := math.Hypot(x-mx, y-my); d < best {
			best, bx, by = d, x, y
		}
	}
	switch {
	case it.Slot == slot && !math.IsInf(best, 1):
		b.heading = math.Atan2(by-my, bx-mx)
	case it.Slot != slot && best < 10:
		away := math.Atan2(my-by, mx-bx)
		// Away from "it", and away from the walls near the edge.
		cx, cy := PlaneSize/2-mx, PlaneSize/2-my
		w := math.Max(math.Abs(cx), math.Abs(cy)) / (PlaneSize / 2)
		b.heading = math.Atan2(math.Sin(away)+w*w*cy/PlaneSize*4, math.Cos(away)+w*w*cx/PlaneSize*4)
	}
	return Input{Heading: b.heading, Run: true}
}
