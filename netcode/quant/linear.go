package quant

import (
	"fmt"
	"math"
)

// Linear quantizes values in [Min, Max] to integers 0..Steps() with step Precision.
type Linear struct {
	min, max  float64
	precision float64
	top       uint32 // largest quantized value
	bits      uint8
}

// NewLinear returns a quantizer for [min, max] with the given precision (the
// size of one step). It fails if the range is empty or needs more than 32 bits.
func NewLinear(min, max, precision float64) (Linear, error) {
	if !(max > min) || !(precision > 0) || math.IsInf(max-min, 0) {
		return Linear{}, fmt.Errorf("quant: bad range [%v, %v] or precision %v", min, max, precision)
	}
	steps := math.Ceil((max - min) / precision)
	bits := BitsFor(max-min, precision)
	if bits > 32 {
		return Linear{}, fmt.Errorf("quant: [%v, %v] at %v needs %d bits (max 32)", min, max, precision, bits)
	}
	return Linear{min: min, max: max, precision: precision, top: uint32(steps), bits: uint8(bits)}, nil
}

// MustLinear is NewLinear for quantizers written in code; it panics on bad input.
func MustLinear(min, max, precision float64) Linear {
	q, err := NewLinear(min, max, precision)
	if err != nil {
		panic(err)
	}
	return q
}

// BitsFor returns ceil(log2(span/precision + 1)): the bits that hold every step.
func BitsFor(span, precision float64) int {
	steps := math.Ceil(span/precision) + 1
	return int(math.Ceil(math.Log2(steps)))
}

// Bits returns the width of the quantized values.
func (q Linear) Bits() uint8 { return q.bits }

// Precision returns the size of one step.
func (q Linear) Precision() float64 { return q.precision }

// Top returns the largest quantized value (the one Max maps to).
func (q Linear) Top() uint32 { return q.top }

// Quantize returns the step nearest to v, clamping v to [Min, Max]. NaN maps to 0.
func (q Linear) Quantize(v float64) uint32 {
	if !(v > q.min) { // also catches NaN
		return 0
	}
	if v >= q.max {
		return q.top
	}
	s := math.Round((v - q.min) / q.precision)
	if s > float64(q.top) {
		return q.top
	}
	return uint32(s)
}

// Dequantize returns the value of step s (clamped to the range).
func (q Linear) Dequantize(s uint32) float64 {
	if s >= q.top {
		return q.max
	}
	return q.min + float64(s)*q.precision
}
