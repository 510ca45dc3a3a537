package protocol

import (
	"encoding/binary"
	"math"
)

// InputSize is the size of one encoded Input.
const InputSize = 5

// Buttons held during a tick.
const (
	ButtonFire = 1 << iota
	ButtonDash
)

// Input is what a player wants during one tick. The server checks it: a move
// longer than 1 is scaled down, unknown buttons are ignored.
type Input struct {
	Buttons      uint8
	MoveX, MoveY int8    // -127..127 each: the direction and strength of movement
	Aim          float64 // radians
}

// Append appends the input's InputSize bytes.
func (in Input) Append(dst []byte) []byte {
	aim := in.Aim / (2 * math.Pi)
	aim -= math.Floor(aim)
	dst = append(dst, in.Buttons, byte(in.MoveX), byte(in.MoveY))
	return binary.LittleEndian.AppendUint16(dst, uint16(math.Round(aim*65536)))
}

// ParseInput reads an input from its InputSize bytes (p must hold them).
func ParseInput(p []byte) Input {
	return Input{
		Buttons: p[0] & (ButtonFire | ButtonDash),
		MoveX:   max(int8(p[1]), -127),
		MoveY:   max(int8(p[2]), -127),
		Aim:     float64(binary.LittleEndian.Uint16(p[3:])) / 65536 * 2 * math.Pi,
	}
}
