// Package tag is a small game of tag built on the netcode library alone, to
// show what a game brings of its own and what it takes from netcode/: players
// run on a square plane, one of them is "it", and "it" passes by touching.
//
// The game brings its wire (this file: the snapshot schema and its
// quantization, the predictor, the input, the events and the record), its
// rules (world.go), a server loop (server.go) and a headless client
// (client.go, bot.go). Everything else (delta coding against acknowledged
// baselines, per-client views under a byte budget, interest management,
// the event stream, the replica records, sessions and transports) is
// netcode's. README.md walks through it step by step.
package tag

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/quant"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/varint"
)

// TickRate is the server's simulation and snapshot rate in Hz. The
// predictor's step per tick follows from it, so it is part of the protocol.
const TickRate = 30

// PlaneSize is the side of the square plane, in metres.
const PlaneSize = 64

// Quantizers of the snapshot fields.
var (
	// posQuant: positions at 1/32 m over the plane, 12 bits.
	posQuant = quant.MustLinear(0, PlaneSize, 1.0/32)
	// velQuant: velocities from -8 to 8 m/s at 1/8 m/s, 8 bits; 0 m/s is
	// step velZero.
	velQuant = quant.MustLinear(-8, 8, 1.0/8)
	// headingQuant: an input's heading, 256 steps a turn.
	headingQuant = quant.MustAngle(8)
)

// velZero is the quantized value of a velocity of 0.
const velZero = 64

// Fields of a player in a snapshot, in schema order.
const (
	FieldX = iota
	FieldY
	FieldVX
	FieldVY
)

// IndexBits is the width of a player's slot: at most 32 players.
const IndexBits = 5

// Schema returns the snapshot schema: per player its position and velocity,
// with the velocity predictor. It has no trained codes: package delta then
// picks its codes per packet.
func Schema() *snapshot.Schema {
	s := snapshot.MustSchema(IndexBits, 4, 0,
		snapshot.Field{Name: "x", Bits: posQuant.Bits()},
		snapshot.Field{Name: "y", Bits: posQuant.Bits()},
		snapshot.Field{Name: "vx", Bits: velQuant.Bits()},
		snapshot.Field{Name: "vy", Bits: velQuant.Bits()},
	)
	s.Check = true // a damaged delta is refused, not decoded into a wrong state
	s.Predictor = predictor{}
	return s
}

// predictor guesses a player's position gap ticks after its baseline from
// its baseline velocity: a runner keeps running (see snapshot.Predictor).
// It uses integers only, so both ends compute the same bits.
type predictor struct{}

// Predict implements snapshot.Predictor. A velocity step of 1/8 m/s moves
// 1/8 * 32 / TickRate = 2/15 position units a tick.
func (predictor) Predict(base []uint32, gap, mask uint32, pred []uint32) {
	copy(pred, base)
	for f := FieldX; f <= FieldY; f++ {
		v := int64(base[FieldVX+f]) - velZero
		pred[f] = base[f] + uint32(divRound(v*2*int64(gap), 15))
	}
}

// divRound returns a/b rounded to the nearest integer, halves away from zero.
func divRound(a, b int64) int64 {
	if a < 0 {
		return -((-a + b/2) / b)
	}
	return (a + b/2) / b
}

// Version is the version of tag's protocol that its offers name and its
// server speaks (webrtc.ServerConfig.Version, webrtc.DialConfig.Version):
// a client of another version is refused before any WebRTC work.
const Version = 1

// History is how many ticks a delta may reach back: about a second.
const History = 32

// DatagramLimit is the largest datagram the server sends.
const DatagramLimit = 1200

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

// Input is what a player does in one tick: run along Heading (radians), or
// stand.
type Input struct {
	Heading float64
	Run     bool
}

// InputSize is the bytes of an encoded input: the heading and a run flag.
const InputSize = 2

// appendInput appends in's encoding.
func appendInput(dst []byte, in Input) []byte {
	var run byte
	if in.Run {
		run = 1
	}
	return append(dst, byte(headingQuant.Quantize(in.Heading)), run)
}

// parseInput decodes an input; any bits beyond the run flag are ignored.
func parseInput(p []byte) Input {
	return Input{Heading: headingQuant.Dequantize(uint32(p[0])), Run: p[1]&1 != 0}
}

// The game's event kinds.
const (
	// KindWelcome tells a client its player's slot; body: varint slot.
	KindWelcome events.Kind = 1 + iota
	// KindTagged says "it" touched another player, who is "it" now; body:
	// Tag.
	KindTagged
)

// validEvent checks an event's body for its kind (an events.Validator):
// the server's Outbox and the client's Inbox refuse anything else.
func validEvent(k events.Kind, body []byte) error {
	switch k {
	case KindWelcome:
		n, err := readSlot(body)
		if err == nil && n != len(body) {
			err = fmt.Errorf("%w: %d bytes left over", errBody, len(body)-n)
		}
		if err != nil {
			return fmt.Errorf("welcome: %w", err)
		}
		return nil
	case KindTagged:
		_, err := parseTag(0, body)
		return err
	}
	return fmt.Errorf("%w: kind %d", errBody, k)
}

// errBody is why an event of an unknown kind, or with bytes left over, is
// refused.
var errBody = errors.New("malformed tag event")

// readSlot reads a varint slot from the start of p and returns its length.
func readSlot(p []byte) (int, error) {
	_, n, err := varint.Read(p, MaxPlayers-1)
	return n, err
}

// Tag is a tagged event: on Tick, player Tagger touched player Tagged.
type Tag struct {
	Tick           uint32
	Tagger, Tagged uint16
}

// appendTag appends t's body (the tick rides in the event).
func appendTag(dst []byte, t Tag) []byte {
	return binary.AppendUvarint(binary.AppendUvarint(dst, uint64(t.Tagger)), uint64(t.Tagged))
}

// parseTag decodes a tagged event's body.
func parseTag(tick uint32, p []byte) (Tag, error) {
	a, n, err := varint.Read(p, 1<<IndexBits-1)
	if err != nil {
		return Tag{}, fmt.Errorf("tag: tagger: %w", err)
	}
	b, m, err := varint.Read(p[n:], 1<<IndexBits-1)
	if err != nil {
		return Tag{}, fmt.Errorf("tag: tagged: %w", err)
	}
	if n+m != len(p) {
		return Tag{}, fmt.Errorf("%w: tag with %d bytes left over", errBody, len(p)-n-m)
	}
	return Tag{Tick: tick, Tagger: uint16(a), Tagged: uint16(b)}, nil
}

// RecordIt is the id of the record that says who is "it".
const RecordIt = 1

// It is the payload of record RecordIt: the slot of the player who is "it"
// and how many tags the match has seen.
type It struct {
	Slot uint16
	Tags uint32
}

// appendIt appends it's payload.
func appendIt(dst []byte, it It) []byte {
	return binary.AppendUvarint(binary.AppendUvarint(dst, uint64(it.Slot)), uint64(it.Tags))
}

// parseIt decodes record RecordIt's payload.
func parseIt(p []byte) (It, error) {
	s, n, err := varint.Read(p, 1<<IndexBits-1)
	if err != nil {
		return It{}, fmt.Errorf("it record: slot: %w", err)
	}
	t, m, err := varint.Read(p[n:], 1<<32-1)
	if err != nil {
		return It{}, fmt.Errorf("it record: tags: %w", err)
	}
	if n+m != len(p) {
		return It{}, fmt.Errorf("it record: %d bytes left over", len(p)-n-m)
	}
	return It{Slot: uint16(s), Tags: uint32(t)}, nil
}
