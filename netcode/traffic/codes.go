package traffic

import (
	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// The residual codes of the model's fields (snapshot.Field.Code), trained by
// TestTrainedCodes on the model's own traffic with its predictor: per field,
// the codeword length of each bit length of a residual. They fit the
// default widths (16-bit positions, a 10-bit heading); a Config with other
// widths gets the generic codes.
var (
	posLengths     = [17]uint8{1, 4, 3, 4, 4, 4, 5, 4, 6, 7, 8, 11, 11, 11, 11, 10, 10}
	headingLengths = [11]uint8{10, 7, 5, 4, 3, 2, 1, 6, 10, 9, 8}
	stateLengths   = [9]uint8{5, 1, 2, 5, 5, 5, 5, 5, 4}
)

// withCodes gives the fields of s the trained codes where their widths fit,
// and the model's predictor.
func withCodes(s *snapshot.Schema, c Config) *snapshot.Schema {
	for f, lengths := range [][]uint8{FieldX: posLengths[:], FieldY: posLengths[:], FieldHeading: headingLengths[:], FieldState: stateLengths[:]} {
		if len(lengths) == int(s.Fields[f].Bits)+1 {
			s.Fields[f].Code = bitpack.MustCode(lengths...)
		}
	}
	s.Predictor = newPredictor(c)
	return s
}
