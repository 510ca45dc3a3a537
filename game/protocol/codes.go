package protocol

import "github.com/sightline-game/sightline/netcode/bitpack"

// The codes of the game's deltas: per field, the codeword length of each
// bit length of a residual, 0 to the field's width (snapshot.Field.Code),
// and of each field mask (snapshot.Schema.MaskCode). TestTrainedCodes
// trained them on bot matches with the game's predictor; they are part of
// the protocol (version 4).
var (
	posLengths     = []uint8{2, 3, 3, 3, 5, 4, 4, 4, 4, 4, 6, 7, 10, 10, 9, 9, 9}
	headingLengths = []uint8{6, 5, 4, 3, 2, 3, 4, 4, 3, 3, 6}
	kindLengths    = []uint8{2, 2, 1}
	stateLengths   = []uint8{4, 2, 1, 4, 3}
	healthLengths  = []uint8{7, 7, 6, 4, 5, 2, 1, 3}
	// maskLengths: per field mask, bit f for field f (0b000011 = x and y).
	maskLengths = []uint8{
		0, 8, 9, 1, 11, 8, 7, 2, 12, 12, 12, 12, 12, 12, 12, 12,
		7, 9, 9, 5, 6, 8, 8, 3, 12, 12, 12, 12, 12, 12, 12, 12,
		10, 11, 11, 11, 12, 11, 11, 10, 12, 12, 12, 12, 12, 12, 12, 12,
		6, 11, 11, 9, 11, 11, 11, 7, 12, 12, 12, 12, 12, 12, 12, 11,
	}
)

// maskCode returns the code of the field masks.
func maskCode() *bitpack.Code { return bitpack.MustCode(maskLengths...) }

// fieldCodes returns the codes of the fields, in schema order.
func fieldCodes() [6]*bitpack.Code {
	return [6]*bitpack.Code{
		FieldX:       bitpack.MustCode(posLengths...),
		FieldY:       bitpack.MustCode(posLengths...),
		FieldHeading: bitpack.MustCode(headingLengths...),
		FieldKind:    bitpack.MustCode(kindLengths...),
		FieldState:   bitpack.MustCode(stateLengths...),
		FieldHealth:  bitpack.MustCode(healthLengths...),
	}
}
