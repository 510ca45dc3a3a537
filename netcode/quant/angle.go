package quant

import (
	"fmt"
	"math"
)

// Angle quantizes angles in radians to 1<<bits steps of a full turn. Angles wrap:
// -pi and pi are the same step, and so are 0 and 2*pi.
type Angle struct {
	bits  uint8
	steps float64
}

// NewAngle returns an angle quantizer with 1<<bits steps per turn (bits 1 to 31).
func NewAngle(bits uint8) (Angle, error) {
	if bits == 0 || bits > 31 {
		return Angle{}, fmt.Errorf("quant: angle bits %d (want 1 to 31)", bits)
	}
	return Angle{bits: bits, steps: float64(uint64(1) << bits)}, nil
}

// MustAngle is NewAngle for quantizers written in code; it panics on bad input.
func MustAngle(bits uint8) Angle {
	a, err := NewAngle(bits)
	if err != nil {
		panic(err)
	}
	return a
}

// Bits returns the width of the quantized values.
func (a Angle) Bits() uint8 { return a.bits }

// Step returns the size of one step in radians.
func (a Angle) Step() float64 { return 2 * math.Pi / a.steps }

// Quantize returns the step nearest to rad, wrapped into 0..1<<bits-1. NaN and infinities map to 0.
func (a Angle) Quantize(rad float64) uint32 {
	if math.IsNaN(rad) || math.IsInf(rad, 0) {
		return 0
	}
	turns := rad / (2 * math.Pi)
	turns -= math.Floor(turns) // [0, 1)
	s := math.Round(turns * a.steps)
	if s >= a.steps {
		s = 0
	}
	return uint32(s)
}

// Dequantize returns the angle of step s in [0, 2*pi).
func (a Angle) Dequantize(s uint32) float64 {
	s &= uint32(a.steps) - 1
	return float64(s) * 2 * math.Pi / a.steps
}

// Diff returns the signed number of steps from a to b the short way round, in
// (-1<<(bits-1), 1<<(bits-1)].
func (a Angle) Diff(from, to uint32) int32 {
	n := uint32(a.steps)
	d := (to - from) & (n - 1)
	if d > n/2 {
		return int32(d) - int32(n)
	}
	return int32(d)
}

// WrapAngle returns rad wrapped into [0, 2*pi).
func WrapAngle(rad float64) float64 {
	rad = math.Mod(rad, 2*math.Pi)
	if rad < 0 {
		rad += 2 * math.Pi
	}
	if rad >= 2*math.Pi {
		rad = 0
	}
	return rad
}
