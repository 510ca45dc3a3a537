package server_test

import (
	"fmt"
	"math"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/quant"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/traffic"
)

type (
	PlayerID = server.PlayerID
	Observer = server.Observer
)

// Walkers is a light world for the server's tests, the bandwidth model's traffic: entities that start and
// stop random walks (the bandwidth model's traffic), and one entity per
// player that its inputs move, checked: the move is clamped to the player's
// speed whatever the input claims.
type Walkers struct {
	w       *traffic.World
	scratch *snapshot.Snapshot // the walkers in the traffic model's layout
	n       int
	pos     quant.Linear
	head    quant.Angle
	dt      float64
	players map[PlayerID]*walker
	slots   []*walker // player slots after the walkers; nil when free
	gens    []uint16
	inputs  uint64
}

type walker struct {
	slot  uint16
	gen   uint16
	x, y  float64
	aim   float64
	moveX float64
	moveY float64
	seq   uint32
}

// AppliedInput returns the newest input applied for the player.
func (w *Walkers) AppliedInput(id PlayerID) uint32 {
	if p, ok := w.players[id]; ok {
		return p.seq
	}
	return 0
}

// PlayerSpeed is how fast a player walks, in px per second.
const PlayerSpeed = 200

// NewWalkers returns a world of n walkers, p of them moving at any time,
// with room for maxPlayers players.
func newWalkers(n int, moving float64, tickRate float64, seed uint64, maxPlayers int) (*Walkers, error) {
	cfg := traffic.DefaultConfig()
	cfg.Entities, cfg.Moving, cfg.TickRate, cfg.Seed = n, moving, tickRate, seed
	if n+maxPlayers > protocol.MaxEntities {
		return nil, fmt.Errorf("server: %d walkers and %d players exceed %d entities", n, maxPlayers, protocol.MaxEntities)
	}
	w, err := traffic.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Walkers{
		w: w, n: n, dt: 1 / tickRate,
		scratch: snapshot.New(w.Schema()),
		pos:     quant.MustLinear(0, protocol.WorldSize, protocol.PosPrecision),
		head:    quant.MustAngle(cfg.HeadingBits),
		players: make(map[PlayerID]*walker),
		slots:   make([]*walker, maxPlayers),
		gens:    make([]uint16, maxPlayers),
	}, nil
}

// AddPlayer gives the player an entity in the middle of the world.
func (w *Walkers) AddPlayer(id PlayerID) {
	for i, p := range w.slots {
		if p != nil {
			continue
		}
		w.gens[i] = (w.gens[i] + 1) & 15
		p := &walker{slot: uint16(w.n + i), gen: w.gens[i], x: protocol.WorldSize / 2, y: protocol.WorldSize / 2}
		w.slots[i] = p
		w.players[id] = p
		return
	}
}

// RemovePlayer frees the player's entity; its slot's next user gets a new generation.
func (w *Walkers) RemovePlayer(id PlayerID) {
	if p, ok := w.players[id]; ok {
		w.slots[int(p.slot)-w.n] = nil
		delete(w.players, id)
	}
}

// ApplyInput takes the player's wish for the next tick, clamped.
func (w *Walkers) ApplyInput(id PlayerID, seq uint32, in arena.Input) {
	p, ok := w.players[id]
	if !ok {
		return
	}
	w.inputs++
	p.seq = seq
	mx, my := float64(in.MoveX)/127, float64(in.MoveY)/127
	if l := math.Hypot(mx, my); l > 1 {
		mx, my = mx/l, my/l
	}
	p.moveX, p.moveY, p.aim = mx, my, in.Aim
}

// Observe returns where the player sees from.
func (w *Walkers) Observe(id PlayerID) Observer {
	p, ok := w.players[id]
	if !ok {
		return Observer{X: w.pos.Quantize(protocol.WorldSize / 2), Y: w.pos.Quantize(protocol.WorldSize / 2)}
	}
	return Observer{X: w.pos.Quantize(p.x), Y: w.pos.Quantize(p.y), Aim: p.aim, Self: p.slot, HasSelf: true}
}

// Step moves walkers and players.
func (w *Walkers) Step() {
	w.w.Step()
	for _, p := range w.slots {
		if p == nil {
			continue
		}
		p.x = min(max(p.x+p.moveX*PlayerSpeed*w.dt, 0), protocol.WorldSize)
		p.y = min(max(p.y+p.moveY*PlayerSpeed*w.dt, 0), protocol.WorldSize)
	}
}

// Fill writes walkers (as creatures), then players, in slot order, in the
// arena's layout.
func (w *Walkers) Fill(dst *snapshot.Snapshot) {
	w.w.Fill(w.scratch)
	dst.Reset()
	for i := range w.scratch.Len() {
		src := w.scratch.Row(i)
		row := dst.AppendUnchecked(w.scratch.ID(i))
		row[protocol.FieldX], row[protocol.FieldY], row[protocol.FieldHeading] = src[traffic.FieldX], src[traffic.FieldY], src[traffic.FieldHeading]
		row[protocol.FieldKind], row[protocol.FieldHealth] = protocol.KindCreature, arena.CreatureHealth
		row[protocol.FieldState] = 0
		if src[traffic.FieldState] == traffic.StateWalking {
			row[protocol.FieldState] = protocol.StateWalking
		}
	}
	for _, p := range w.slots {
		if p == nil {
			continue
		}
		row := dst.AppendUnchecked(snapshot.EntityID{Index: p.slot, Generation: p.gen})
		row[protocol.FieldX] = w.pos.Quantize(p.x)
		row[protocol.FieldY] = w.pos.Quantize(p.y)
		row[protocol.FieldHeading] = w.head.Quantize(p.aim)
		row[protocol.FieldKind], row[protocol.FieldState], row[protocol.FieldHealth] = protocol.KindPlayer, 0, arena.PlayerHealth
	}
}
