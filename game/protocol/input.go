package protocol

import (
	"encoding/binary"
	"math"

	"github.com/sightline-game/sightline/game/arena"
)

// InputSize is the size of one encoded input.
const InputSize = 9

// AppendInput appends the input's InputSize bytes: buttons, move x, move y,
// the aim as a little-endian uint16 fraction of a turn, and the view the
// client was drawing: the low 16 bits of View.From (little-endian; 0 says
// no view), View.Gap and View.Frac. A view whose tick's low bits are 0 is
// stated from the tick before (the same moment), so that it is not read as
// no view.
func AppendInput(dst []byte, in arena.Input) []byte {
	aim := in.Aim / (2 * math.Pi)
	aim -= math.Floor(aim)
	if math.IsNaN(aim) {
		aim = 0
	}
	dst = append(dst, in.Buttons, byte(in.MoveX), byte(in.MoveY))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(uint32(math.Round(aim*65536)))) // 1.0 wraps to 0
	v := in.View
	if v.From == 0 {
		v = arena.View{}
	}
	if v.From != 0 && uint16(v.From) == 0 {
		v = viewFromTickBefore(v)
	}
	dst = binary.LittleEndian.AppendUint16(dst, uint16(v.From))
	return append(dst, v.Gap, v.Frac)
}

// viewFromTickBefore states view v, whose tick's low 16 bits are 0 (which
// reads as no view), from the tick before: the same moment between that
// tick and v's newer one (a gap one longer, the fraction rounded to the
// nearest, a half up, and at most 255), or, for v's tick alone, 1/256 of
// a tick before it. A gap of 255 cannot grow: such a view is stated as its
// nearer tick alone, as a gap too long for the byte is (B if the fraction
// is at least 128; A as A alone).
func viewFromTickBefore(v arena.View) arena.View {
	if v.Gap == math.MaxUint8 && v.Frac >= 128 {
		return arena.View{From: v.From + math.MaxUint8}
	}
	if v.Gap == 0 || v.Gap == math.MaxUint8 {
		return arena.View{From: v.From - 1, Gap: 1, Frac: math.MaxUint8}
	}
	// From-1 + (Gap+1)·f'/256 = From + Gap·Frac/256.
	f := (256 + int(v.Gap)*int(v.Frac) + int(v.Gap+1)/2) / int(v.Gap+1)
	return arena.View{From: v.From - 1, Gap: v.Gap + 1, Frac: uint8(min(f, math.MaxUint8))}
}

// ParseInput reads an input from its InputSize bytes (p must hold them).
// Buttons the arena does not know are dropped; a move of -128 reads as
// -127. The view's 16 bits of tick name the newest tick at or before
// newest (the newest tick the client acknowledged) that ends in them, and
// the view is cut so that it draws nothing newer than newest: a client
// cannot claim to have seen a tick it had not received. With view tick 0,
// or newest 0, the input claims no view (the zero arena.View).
func ParseInput(p []byte, newest uint32) arena.Input {
	in := arena.Input{
		Buttons: p[0] & (arena.ButtonFire | arena.ButtonDash),
		MoveX:   max(int8(p[1]), -127),
		MoveY:   max(int8(p[2]), -127),
		Aim:     float64(binary.LittleEndian.Uint16(p[3:])) / 65536 * 2 * math.Pi,
	}
	low := binary.LittleEndian.Uint16(p[5:])
	if low == 0 || newest == 0 {
		return in
	}
	from := newest - uint32(uint16(newest)-low)
	if from == 0 || from > newest { // before the first tick
		return in
	}
	gap, frac := p[7], p[8]
	if uint32(gap) > newest-from {
		gap = uint8(newest - from)
	}
	if gap == 0 {
		frac = 0
	}
	in.View = arena.View{From: from, Gap: gap, Frac: frac}
	return in
}
