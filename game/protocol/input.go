package protocol

import (
	"encoding/binary"
	"math"

	"github.com/sightline-game/sightline/game/arena"
)

// InputSize is the size of one encoded input.
const InputSize = 5

// AppendInput appends the input's InputSize bytes: buttons, move x, move y,
// and the aim as a little-endian uint16 fraction of a turn.
func AppendInput(dst []byte, in arena.Input) []byte {
	aim := in.Aim / (2 * math.Pi)
	aim -= math.Floor(aim)
	if math.IsNaN(aim) {
		aim = 0
	}
	dst = append(dst, in.Buttons, byte(in.MoveX), byte(in.MoveY))
	return binary.LittleEndian.AppendUint16(dst, uint16(uint32(math.Round(aim*65536)))) // 1.0 wraps to 0
}

// ParseInput reads an input from its InputSize bytes (p must hold them).
// Buttons the arena does not know are dropped; a move of -128 reads as
// -127.
func ParseInput(p []byte) arena.Input {
	return arena.Input{
		Buttons: p[0] & (arena.ButtonFire | arena.ButtonDash),
		MoveX:   max(int8(p[1]), -127),
		MoveY:   max(int8(p[2]), -127),
		Aim:     float64(binary.LittleEndian.Uint16(p[3:])) / 65536 * 2 * math.Pi,
	}
}
