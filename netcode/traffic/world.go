package traffic

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sightline-game/sightline/netcode/quant"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// entity is one walker. walking is the state byte: true from the tick a walk
// starts until its last moving tick. resting marks the tick right after a
// walk's last moving tick, on which the entity cannot start again.
type entity struct {
	x, y    float64
	heading float64 // radians in [0, 2*pi)
	walking bool
	resting bool
	moved   bool // moved on the last Step
}

// World is the traffic model: Config.Entities walkers in a square world.
// It is not safe for concurrent use.
type World struct {
	cfg      Config
	schema   *snapshot.Schema
	pos      quant.Linear
	head     quant.Angle
	start    float64 // a
	stop     float64 // s
	stepLen  float64 // px per moving tick
	maxTurn  float64 // radians per turn, at most
	rng      rand.PCG
	tick     uint32
	moved    int
	entities []entity
}

// New returns a world at tick 0, with entities at seeded random positions and
// headings and a seeded share Moving of them about to move on tick 1.
func New(cfg Config) (*World, error) {
	schema, err := cfg.Schema() // validates cfg
	if err != nil {
		return nil, err
	}
	a, s, _ := cfg.chances()
	pos, head, _ := cfg.quantizers()
	dt := 1 / cfg.TickRate
	w := &World{
		cfg:      cfg,
		schema:   schema,
		pos:      pos,
		head:     head,
		start:    a,
		stop:     s,
		stepLen:  cfg.WalkSpeed * dt,
		maxTurn:  cfg.TurnRate * dt * math.Pi / 180,
		entities: make([]entity, cfg.Entities),
	}
	w.rng.Seed(cfg.Seed, 0x5eed_7aff_1c00_0001)
	// Start in the chain's stationary distribution: a share p(1-s) keeps
	// walking, a share p*s has just taken its last step and rests, and the
	// rest are idle. Then P(moves on tick 1) = p(1-s) + (1-p)a = p.
	p := cfg.Moving
	for i := range w.entities {
		e := &w.entities[i]
		e.x = w.uniform() * cfg.WorldSize
		e.y = w.uniform() * cfg.WorldSize
		e.heading = w.uniform() * 2 * math.Pi
		u := w.uniform()
		switch {
		case u < p*(1-s):
			e.walking = true
		case u < p:
			e.resting = true
		}
	}
	return w, nil
}

// uniform returns a float64 in [0, 1).
func (w *World) uniform() float64 { return float64(w.rng.Uint64()>>11) * 0x1p-53 }

// Step advances the world by one tick.
func (w *World) Step() {
	w.tick++
	w.moved = 0
	size := w.cfg.WorldSize
	for i := range w.entities {
		e := &w.entities[i]
		e.moved = false
		switch {
		case e.walking:
		case e.resting:
			e.resting = false
			continue
		case w.start > 0 && w.uniform() < w.start:
			e.walking = true
		default:
			continue
		}
		// A moving tick: maybe turn, then step and bounce.
		if w.cfg.TurnChance > 0 && w.uniform() < w.cfg.TurnChance {
			e.heading += (2*w.uniform() - 1) * w.maxTurn
		}
		sin, cos := math.Sincos(e.heading)
		e.x += w.stepLen * cos
		e.y += w.stepLen * sin
		if e.x < 0 {
			e.x, e.heading = -e.x, math.Pi-e.heading
		} else if e.x > size {
			e.x, e.heading = 2*size-e.x, math.Pi-e.heading
		}
		if e.y < 0 {
			e.y, e.heading = -e.y, -e.heading
		} else if e.y > size {
			e.y, e.heading = 2*size-e.y, -e.heading
		}
		// A step longer than the world could still leave it; clamp.
		e.x = min(max(e.x, 0), size)
		e.y = min(max(e.y, 0), size)
		e.heading = quant.WrapAngle(e.heading)
		e.moved = true
		w.moved++
		if w.stop > 0 && w.uniform() < w.stop {
			e.walking = false // last moving tick
			e.resting = true
		}
	}
}

// Fill writes the quantized state of every entity into dst, ids 0..N-1 with
// generation 0. dst's schema must have the layout of Schema (the same field
// widths) and room for Entities; Fill panics otherwise.
func (w *World) Fill(dst *snapshot.Snapshot) {
	ds := dst.Schema()
	if ds != w.schema && !sameLayout(ds, w.schema) {
		panic(fmt.Sprintf("traffic: Fill into a snapshot with another schema (%d fields, room for %d)", ds.NumFields(), ds.MaxEntities))
	}
	dst.Reset()
	for i := range w.entities {
		e := &w.entities[i]
		row := dst.AppendUnchecked(snapshot.EntityID{Index: uint16(i)})
		row[FieldX] = w.pos.Quantize(e.x)
		row[FieldY] = w.pos.Quantize(e.y)
		row[FieldHeading] = w.head.Quantize(e.heading)
		if e.walking {
			row[FieldState] = StateWalking
		} else {
			row[FieldState] = StateIdle
		}
	}
}

func sameLayout(a, b *snapshot.Schema) bool {
	if len(a.Fields) != len(b.Fields) || a.MaxEntities < b.MaxEntities || a.IndexBits < b.IndexBits {
		return false
	}
	for i := range a.Fields {
		if a.Fields[i].Bits != b.Fields[i].Bits {
			return false
		}
	}
	return true
}

// Tick returns the number of Steps taken: 0 for a new world, 1 after the first Step.
func (w *World) Tick() uint32 { return w.tick }

// Config returns the world's configuration.
func (w *World) Config() Config { return w.cfg }

// Schema returns the schema of the snapshots Fill writes.
func (w *World) Schema() *snapshot.Schema { return w.schema }

// Len returns the number of entities.
func (w *World) Len() int { return len(w.entities) }

// StartChance returns a, the start chance in use.
func (w *World) StartChance() float64 { return w.start }

// StopChance returns s, the stop chance in use.
func (w *World) StopChance() float64 { return w.stop }

// MovedCount returns how many entities moved on the last Step.
func (w *World) MovedCount() int { return w.moved }

// Moved reports whether entity i moved on the last Step.
func (w *World) Moved(i int) bool { return w.entities[i].moved }

// Walking reports entity i's state byte: true from the tick its walk starts
// until the walk's last moving tick (exclusive).
func (w *World) Walking(i int) bool { return w.entities[i].walking }

// Position returns entity i's position in pixels.
func (w *World) Position(i int) (x, y float64) { return w.entities[i].x, w.entities[i].y }

// Heading returns entity i's heading in radians, in [0, 2*pi).
func (w *World) Heading(i int) float64 { return w.entities[i].heading }
