package tag

import (
	"math"
	"math/rand/v2"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Rules of the game.
const (
	MaxPlayers  = 1 << IndexBits
	RunSpeed    = 6.0 // m/s
	ItSpeed     = 8.0 // m/s: "it" is a little faster, or nobody would be caught
	TouchRadius = 1.0 // m
	// FreezeTicks is how long a player who just became "it" stands still
	// (counting to three), so that the one who tagged gets away.
	FreezeTicks = TickRate
)

// player is one runner on the plane.
type player struct {
	live   bool
	gen    uint16
	x, y   float64 // m
	vx, vy float64 // m/s
	in     Input
}

// World is the game's simulation: it knows no bytes but Fill's.
type World struct {
	players [MaxPlayers]player
	rng     *rand.Rand
	tick    uint32
	// RoundTicks, if not 0, ends the round at that tick: nobody is tagged
	// any more.
	roundTicks uint32
	it         int // slot of "it"; -1 with nobody on the plane
	frozen     uint32
	tags       uint32
	itChanged  bool
	pending    []Tag
}

// NewWorld returns an empty plane; seed places the players who join, and
// a round of roundTicks ticks (0: endless) ends the tagging.
func NewWorld(seed uint64, roundTicks uint32) *World {
	return &World{rng: rand.New(rand.NewPCG(seed, 0x7a6)), roundTicks: roundTicks, it: -1}
}

// Add puts a new player on the plane and returns its slot, or false when
// the plane is full. The first player is "it".
func (w *World) Add() (uint16, bool) {
	for s := range w.players {
		p := &w.players[s]
		if p.live {
			continue
		}
		*p = player{live: true, gen: (p.gen + 1) & 15,
			x: PlaneSize*3/8 + w.rng.Float64()*PlaneSize/4, y: PlaneSize*3/8 + w.rng.Float64()*PlaneSize/4}
		if w.it < 0 {
			w.setIt(s)
		}
		return uint16(s), true
	}
	return 0, false
}

// Remove takes a player off the plane; if it was "it", the lowest slot
// left is.
func (w *World) Remove(slot uint16) {
	w.players[slot].live = false
	if w.it != int(slot) {
		return
	}
	w.setIt(-1)
	for s := range w.players {
		if w.players[s].live {
			w.setIt(s)
			break
		}
	}
}

func (w *World) setIt(s int) {
	w.it, w.frozen, w.itChanged = s, w.tick+FreezeTicks, true
}

// SetInput sets what a player does from the next step on.
func (w *World) SetInput(slot uint16, in Input) { w.players[slot].in = in }

// Step advances the world one tick: everyone runs, then "it" tags the
// nearest player in touch, if any.
func (w *World) Step() {
	w.tick++
	for s := range w.players {
		p := &w.players[s]
		if !p.live {
			continue
		}
		speed := RunSpeed
		if s == w.it {
			speed = ItSpeed
			if w.tick < w.frozen {
				speed = 0
			}
		}
		p.vx, p.vy = 0, 0
		if p.in.Run {
			p.vx, p.vy = speed*math.Cos(p.in.Heading), speed*math.Sin(p.in.Heading)
		}
		p.x, p.vx = clampAxis(p.x+p.vx/TickRate, p.vx)
		p.y, p.vy = clampAxis(p.y+p.vy/TickRate, p.vy)
	}
	if w.it < 0 || w.tick < w.frozen || (w.roundTicks != 0 && w.tick > w.roundTicks) {
		return
	}
	it, best := &w.players[w.it], -1
	bestD := TouchRadius * TouchRadius
	for s := range w.players {
		p := &w.players[s]
		if !p.live || s == w.it {
			continue
		}
		if d := (p.x-it.x)*(p.x-it.x) + (p.y-it.y)*(p.y-it.y); d <= bestD {
			best, bestD = s, d
		}
	}
	if best < 0 {
		return
	}
	w.pending = append(w.pending, Tag{Tick: w.tick, Tagger: uint16(w.it), Tagged: uint16(best)})
	w.tags++
	w.setIt(best)
}

// clampAxis keeps a coordinate on the plane; a runner at the edge stops
// along that axis.
func clampAxis(v, vel float64) (float64, float64) {
	if v < 0 {
		return 0, 0
	}
	if v > PlaneSize {
		return PlaneSize, 0
	}
	return v, vel
}

// TakeTags calls fn with every tag since the last call, in order.
func (w *World) TakeTags(fn func(Tag)) {
	for _, t := range w.pending {
		fn(t)
	}
	w.pending = w.pending[:0]
}

// It returns who is "it" (false with nobody on the plane) and the tags so
// far.
func (w *World) It() (It, bool) {
	return It{Slot: uint16(max(w.it, 0)), Tags: w.tags}, w.it >= 0
}

// ItChanged reports whether It changed since the last call.
func (w *World) ItChanged() bool {
	c := w.itChanged
	w.itChanged = false
	return c
}

// Fill quantizes every player into dst, in slot order.
func (w *World) Fill(dst *snapshot.Snapshot) {
	dst.Reset()
	for s := range w.players {
		p := &w.players[s]
		if !p.live {
			continue
		}
		r := dst.AppendUnchecked(snapshot.EntityID{Index: uint16(s), Generation: p.gen})
		r[FieldX], r[FieldY] = posQuant.Quantize(p.x), posQuant.Quantize(p.y)
		r[FieldVX], r[FieldVY] = velQuant.Quantize(p.vx), velQuant.Quantize(p.vy)
	}
}
