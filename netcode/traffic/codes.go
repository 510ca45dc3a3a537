package traffic

import (
	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// The codes of the model's deltas, trained by TestTrainedCodes on the
// model's own traffic with its predictor: per field, the codeword length of
// each bit length of a residual (snapshot.Field.Code), and of each field
// mask (snapshot.Schema.MaskCode). They fit the default widths (16-bit
// positions, a 10-bit heading); a Config with other widths gets the generic
// codings for the fields that differ.
var (
	xLengths       = []uint8{1, 4, 3, 4, 4, 4, 4, 5, 6, 7, 8, 11, 11, 11, 11, 10, 10}
	yLengths       = []uint8{1, 4, 3, 4, 4, 4, 5, 4, 6, 7, 8, 11, 11, 11, 11, 10, 10}
	headingLengths = []uint8{10, 7, 5, 4, 3, 2, 1, 6, 10, 9, 8}
	stateLengths   = []uint8{5, 1, 2, 5, 5, 5, 5, 5, 4}
	maskLengths    = []uint8{0, 6, 7, 1, 11, 7, 7, 2, 11, 7, 7, 3, 10, 8, 9, 4}
)

// withCodes gives s the model's predictor, and the trained codes to the
// fields whose widths they fit (and the mask code if all do).
func withCodes(s *snapshot.Schema, c Config) *snapshot.Schema {
	all := true
	for f, lengths := range [][]uint8{FieldX: xLengths, FieldY: yLengths, FieldHeading: headingLengths, FieldState: stateLengths} {
		if len(lengths) == int(s.Fields[f].Bits)+1 {
			s.Fields[f].Code = bitpack.MustCode(lengths...)
		} else {
			all = false
		}
	}
	if all {
		s.MaskCode = bitpack.MustCode(maskLengths...)
	}
	s.Predictor = newPredictor(c)
	return s
}
