// Package protoworld hands the arena to the match server: it wraps an
// arena.World in game/protocol's types, so that it satisfies the server's
// World interface (and its optional EventSource, RecordSource, Namer and
// MapSeeder).
//
// It exists because game/protocol imports game/arena (for the snapshot
// schema), so the rules cannot use protocol's types themselves. The arena's
// PlayerID, Input and Observer have exactly the layout of protocol's, so
// every method here is a plain conversion. If protocol ever declares its
// types as aliases of the arena's, *arena.World serves directly and this
// package can go.
package protoworld

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
)

// World is an arena.World seen through protocol's types. Every other method
// of the arena's World (Step, Fill, TakeEvents, ChangedRecords, AllRecords,
// MapSeed, Stats, Hash, ...) is promoted unchanged.
type World struct {
	*arena.World
}

// New returns the arena of cfg, wrapped.
func New(cfg arena.Config) (*World, error) {
	w, err := arena.NewWorld(cfg)
	if err != nil {
		return nil, err
	}
	return &World{w}, nil
}

// AddPlayer gives the player an entity.
func (w *World) AddPlayer(id protocol.PlayerID) { w.World.AddPlayer(arena.PlayerID(id)) }

// RemovePlayer frees the player's entity.
func (w *World) RemovePlayer(id protocol.PlayerID) { w.World.RemovePlayer(arena.PlayerID(id)) }

// ApplyInput queues the player's input seq, checked.
func (w *World) ApplyInput(id protocol.PlayerID, seq uint32, in protocol.Input) {
	w.World.ApplyInput(arena.PlayerID(id), seq, arena.Input(in))
}

// Observe says where the player sees from.
func (w *World) Observe(id protocol.PlayerID) protocol.Observer {
	return protocol.Observer(w.World.Observe(arena.PlayerID(id)))
}

// AppliedInput returns the seq of the player's newest consumed input.
func (w *World) AppliedInput(id protocol.PlayerID) uint32 {
	return w.World.AppliedInput(arena.PlayerID(id))
}

// SetName sets the name on the player's score record.
func (w *World) SetName(id protocol.PlayerID, name string) {
	w.World.SetName(arena.PlayerID(id), name)
}

// Player returns what the world knows of the player.
func (w *World) Player(id protocol.PlayerID) (arena.PlayerInfo, bool) {
	return w.World.Player(arena.PlayerID(id))
}
