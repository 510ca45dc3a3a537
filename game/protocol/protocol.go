// Package protocol is what the match server and every client agree on: the
// snapshot schema, the wire format, the layout of an input, and the default
// tick rate. Both ends build their sessions from Session.
package protocol

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// DefaultTickRate is the server's simulation and snapshot rate in Hz.
const DefaultTickRate = 30

// History is how many ticks a delta may reach back: about a second at 30 Hz.
const History = 32

// MaxEntities bounds the entities of a snapshot.
const MaxEntities = arena.MaxEntities

// The world and its quantization: a 4096 px square, positions at 1/8 px.
const (
	WorldSize    = 4096  // px
	PosPrecision = 0.125 // px
	UnitsPerPx   = 8     // quantized units per pixel
)

// Interest: a client sees what is within ViewRadius of its player, and
// keeps seeing it until it is ViewMargin further.
const (
	ViewRadius = 720 // px: a little more than half a 1280x720 screen's diagonal
	ViewMargin = 48  // px
)

// Position fields of the schema.
const (
	FieldX = arena.FieldX
	FieldY = arena.FieldY
)

// Budget: bytes per second per client, and the largest datagram.
const (
	DefaultRate   = 8000
	DatagramLimit = 1200
)

// Schema returns the match's snapshot schema: the arena's entities (x, y at
// 1/8 px in a 4096 px world, a 10-bit heading, kind, state and health).
func Schema() *snapshot.Schema { return arena.Schema() }

// Session returns the session configuration both ends use.
func Session() session.Config {
	return session.Config{
		Schema:     Schema(),
		Format:     func(s *snapshot.Schema) snapstream.Format { return delta.MustCodec(s) },
		History:    History,
		InputSize:  InputSize,
		Redundancy: 4,
	}
}
