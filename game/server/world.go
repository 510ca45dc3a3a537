package server

import (
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/traffic"
)

// PlayerID names a connected player for the length of its connection.
type PlayerID uint32

// World is the game a match runs. The server calls it from the tick loop
// only, never concurrently.
type World interface {
	// AddPlayer is called when a player connects.
	AddPlayer(id PlayerID)
	// RemovePlayer is called when a player leaves or times out.
	RemovePlayer(id PlayerID)
	// ApplyInput hands over a player's input for its next tick; the world
	// checks it (the server never trusts a client).
	ApplyInput(id PlayerID, seq uint32, in protocol.Input)
	// Step advances the world one tick.
	Step()
	// Fill writes the world's quantized state.
	Fill(dst *snapshot.Snapshot)
}

// Walkers is a stand-in world until the arena lands: entities that start and
// stop random walks, the bandwidth model's traffic. Players join and send
// inputs but have no body in it.
type Walkers struct {
	w      *traffic.World
	inputs uint64
}

// NewWalkers returns a world of n walkers, p of them moving at any time.
func NewWalkers(n int, moving float64, tickRate float64, seed uint64) (*Walkers, error) {
	cfg := traffic.DefaultConfig()
	cfg.Entities, cfg.Moving, cfg.TickRate, cfg.Seed = n, moving, tickRate, seed
	w, err := traffic.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Walkers{w: w}, nil
}

func (w *Walkers) AddPlayer(PlayerID)                          {}
func (w *Walkers) RemovePlayer(PlayerID)                       {}
func (w *Walkers) ApplyInput(PlayerID, uint32, protocol.Input) { w.inputs++ }
func (w *Walkers) Step()                                       { w.w.Step() }
func (w *Walkers) Fill(dst *snapshot.Snapshot)                 { w.w.Fill(dst) }
