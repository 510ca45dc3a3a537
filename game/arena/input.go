package arena

import (
	"encoding/binary"
	"math"
)

// The arena defines the types the match server and clients share (PlayerID,
// Input, Observer); package game/protocol names them as aliases, so the
// arena's World is the server's World with no wrapper.

// PlayerID names a connected player for the length of its connection. Id 0
// is reserved: in events it means "no player" (a creature).
type PlayerID uint32

// MaxPlayerID is the largest player id the world accepts: ids share the
// 32-bit record id with a record kind (see RecordScore).
const MaxPlayerID = RecordIndexMask

// InputSize is the size of one encoded Input.
const InputSize = 5

// Buttons held during a tick.
const (
	ButtonFire = 1 << iota // fire the gun (at most once every FireInterval ticks)
	ButtonDash             // dash on the press (at most once every DashCooldown ticks)
)

const knownButtons = ButtonFire | ButtonDash

// Input is what a player wants during one tick. The world checks it: a move
// longer than 1 is scaled down, unknown buttons are ignored, a non-finite
// aim keeps the previous one.
type Input struct {
	Buttons      uint8
	MoveX, MoveY int8    // -127..127 each: the direction and strength of movement
	Aim          float64 // radians
}

// Append appends the input's InputSize bytes: buttons, move x, move y, and
// the aim as a little-endian uint16 fraction of a turn.
func (in Input) Append(dst []byte) []byte {
	aim := in.Aim / (2 * math.Pi)
	aim -= math.Floor(aim)
	if math.IsNaN(aim) {
		aim = 0
	}
	dst = append(dst, in.Buttons, byte(in.MoveX), byte(in.MoveY))
	return binary.LittleEndian.AppendUint16(dst, uint16(uint32(math.Round(aim*65536)))) // 1.0 wraps to 0
}

// ParseInput reads an input from its InputSize bytes (p must hold them).
func ParseInput(p []byte) Input {
	return Input{
		Buttons: p[0] & knownButtons,
		MoveX:   max(int8(p[1]), -127),
		MoveY:   max(int8(p[2]), -127),
		Aim:     float64(binary.LittleEndian.Uint16(p[3:])) / 65536 * 2 * math.Pi,
	}
}

// Observer is where a player sees from, in the snapshot's quantized units:
// what the server needs to choose that player's view.
type Observer struct {
	X, Y    uint32
	Aim     float64 // radians: what the player aims at matters more
	Self    uint16  // the slot of its own entity, always sent when it changes
	HasSelf bool
}
