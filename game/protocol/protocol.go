// Package protocol is what the match server and every client agree on: the
// snapshot schema, the wire format, the layout of an input, and the default
// tick rate. Both ends build their sessions from Session.
package protocol

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/traffic"
)

// DefaultTickRate is the server's simulation and snapshot rate in Hz.
const DefaultTickRate = 30

// History is how many ticks a delta may reach back: about a second at 30 Hz.
const History = 32

// MaxEntities bounds the entities of a snapshot.
const MaxEntities = 1024

// Schema returns the match's snapshot schema: until the arena lands, the
// walkers of the bandwidth model (x, y at 1/8 px in a 4096 px world, a 10-bit
// heading and a state byte).
func Schema() *snapshot.Schema {
	cfg := traffic.DefaultConfig()
	cfg.Entities = MaxEntities
	s, err := cfg.Schema()
	if err != nil {
		panic(fmt.Sprintf("protocol: %v", err))
	}
	return s
}

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
