// Package quant turns real values into small integers and back.
//
// A Linear quantizer maps a closed range onto integer steps of a given
// precision; the number of bits follows from the two:
// ceil(log2(range/precision + 1)). Values outside the range are clamped to its
// edge, never wrapped or rejected, so a quantized value always fits its field.
// An Angle quantizer divides the full turn into 1<<bits steps and wraps.
// Either way the round-trip error is at most half a step.
package quant
