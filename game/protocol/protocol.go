// Package protocol is what the match server and every client agree on: how
// the arena's state becomes bytes and back. It owns the wire: the snapshot
// schema and the quantizing of entities into it ([Fill]), the encoding of
// an input ([AppendInput], [ParseInput]), of the records
// ([AppendRecordPayload] and the Parse functions), of the events (their
// kinds, their bodies, [ValidateEventBody] for both ends' event streams, and
// [AppendEvent]) and of the welcome, and [CleanChat] for what players type.
// Both ends build their sessions from [Session]. What only the server
// decides (the match it drives, what each player is sent first) is in
// game/server.
//
// The arena (game/arena) is a plain simulation that knows no bytes; this
// package imports it, never the reverse.
package protocol

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// Version is the version of this protocol (docs/PROTOCOL.md) an offer
// speaks: clients name it in their offers (webrtc.DialConfig.Version,
// browser.Config.Version) and servers refuse an offer of another version
// with 400 (webrtc.ServerConfig.Version).
// Version 2: the arena's state field grew to 4 bits (the spawn shield).
// Version 3: the clock record names the next round's start (the
// intermission), the score record carries accuracy, pickups have kinds 1
// and 2 (spread gun, power-up), and the loadout record is new.
// Version 4: snapshot deltas code changed fields against a prediction with
// trained prefix codes, masks by a trained code, and sets by Rice codes.
// Version 5: an input says what the client was drawing (its view: two
// ticks and the fraction between them), and shots are judged by it.
// Version 6: a hit names the input that fired the shot.
// Version 7: a kill says how its blow was judged (the moment of the world
// and where the victim stood then), for the killcam.
const Version = 7

// DefaultTickRate is the server's simulation and snapshot rate in Hz.
const DefaultTickRate = 30

// History is how many ticks a delta may reach back: about a second at 30 Hz.
const History = 32

// The world and its quantization: a 4096 px square, positions at 1/8 px.
const (
	WorldSize    = arena.WorldSize    // px
	PosPrecision = arena.PositionGrid // px: where players stand at the end of a tick
	UnitsPerPx   = 8                  // quantized units per pixel
)

// Interest: a client sees what is within ViewRadius of its player, and
// keeps seeing it until it is ViewMargin further.
const (
	ViewRadius = 720 // px: a little more than half a 1280x720 screen's diagonal
	ViewMargin = 48  // px
)

// Budget: bytes per second per client, and the largest datagram.
const (
	DefaultRate   = 8000
	DatagramLimit = 1200
)

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
