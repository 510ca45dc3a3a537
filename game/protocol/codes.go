package protocol

import (
	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// The codes of the game's deltas: per field, the codeword length of each
// bit length of a residual, 0 to the field's width (snapshot.Field.Code),
// and of each field mask (snapshot.Schema.MaskCode). TestTrainedCodes
// trained them on bot matches with the game's predictor; they are part of
// the protocol (version 4).
var (
	posLengths     = []uint8{3, 4, 4, 5, 5, 4, 3, 3, 3, 3, 4, 5, 6, 8, 8, 8, 8}
	headingLengths = []uint8{6, 6, 4, 3, 3, 3, 4, 4, 3, 2, 5}
	kindLengths    = []uint8{2, 2, 1}
	stateLengths   = []uint8{4, 2, 1, 4, 3}
	healthLengths  = []uint8{7, 7, 6, 4, 5, 3, 1, 2}
	// New entities' values against their guesses (snapshot.Field.NewCode).
	newPosLengths     = []uint8{8, 8, 8, 8, 8, 8, 7, 6, 6, 5, 4, 3, 3, 2, 2, 4, 5}
	newHeadingLengths = []uint8{7, 8, 8, 7, 7, 6, 6, 4, 3, 2, 1}
	newKindLengths    = []uint8{1, 2, 2}
	newStateLengths   = []uint8{1, 2, 3, 4, 4}
	newHealthLengths  = []uint8{1, 7, 5, 7, 6, 4, 2, 3}
	// Made entities' values against their maker's guess
	// (snapshot.Field.SpawnCode); a made entity's kind, state and health
	// are not written: they are the guess (a projectile, 0, 0).
	spawnPosLengths     = []uint8{2, 4, 4, 4, 4, 4, 3, 3, 4, 4, 5, 7, 8, 8, 7, 8, 8}
	spawnHeadingLengths = []uint8{2, 5, 4, 4, 4, 3, 3, 3, 3, 6, 6}
	// maskLengths: per field mask, bit f for field f (0b000011 = x and y).
	maskLengths = []uint8{
		0, 8, 8, 4, 9, 7, 7, 1, 10, 10, 10, 10, 10, 10, 10, 10,
		7, 8, 8, 5, 6, 8, 8, 2, 10, 10, 10, 10, 10, 10, 10, 10,
		7, 9, 9, 9, 10, 9, 9, 8, 10, 10, 10, 10, 10, 10, 10, 10,
		6, 9, 9, 8, 9, 9, 9, 7, 10, 10, 10, 10, 10, 10, 10, 9,
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

// newCodes returns the codes of new entities' fields, in schema order.
func newCodes() [6]*bitpack.Code {
	return [6]*bitpack.Code{
		FieldX:       bitpack.MustCode(newPosLengths...),
		FieldY:       bitpack.MustCode(newPosLengths...),
		FieldHeading: bitpack.MustCode(newHeadingLengths...),
		FieldKind:    bitpack.MustCode(newKindLengths...),
		FieldState:   bitpack.MustCode(newStateLengths...),
		FieldHealth:  bitpack.MustCode(newHealthLengths...),
	}
}

// spawnCodes returns the codes of made entities' fields, in schema order:
// nil for the fields a made entity does not write.
func spawnCodes() [6]*bitpack.Code {
	return [6]*bitpack.Code{
		FieldX:       bitpack.MustCode(spawnPosLengths...),
		FieldY:       bitpack.MustCode(spawnPosLengths...),
		FieldHeading: bitpack.MustCode(spawnHeadingLengths...),
	}
}

// The codes of changed entities per context (snapshot.Schema.Contexts, see
// predictor.Context), trained like the codes above on the changes of each
// context alone: players, walking creatures, idle creatures. Fields left
// out (kind, which never changes) keep the codes above.
var (
	playerXLengths       = []uint8{8, 6, 6, 6, 6, 5, 5, 4, 3, 2, 2, 3, 5, 8, 7, 7, 7}
	playerYLengths       = []uint8{8, 7, 7, 7, 6, 5, 4, 4, 3, 2, 2, 3, 5, 8, 8, 8, 7}
	playerHeadingLengths = []uint8{8, 8, 7, 6, 5, 3, 2, 3, 3, 2, 4}
	playerStateLengths   = []uint8{4, 4, 3, 2, 1}
	playerHealthLengths  = []uint8{7, 7, 6, 4, 5, 3, 1, 2}
	playerMaskLengths    = []uint8{
		0, 9, 9, 2, 9, 6, 6, 1, 10, 10, 10, 10, 10, 10, 10, 10,
		7, 9, 9, 7, 10, 9, 9, 5, 10, 10, 10, 10, 10, 10, 10, 10,
		10, 9, 9, 8, 10, 9, 9, 5, 10, 10, 10, 10, 10, 10, 10, 10,
		9, 10, 9, 7, 9, 9, 9, 4, 10, 10, 10, 10, 10, 10, 10, 10,
	}
	walkingXLengths       = []uint8{2, 3, 3, 4, 4, 3, 4, 4, 4, 5, 7, 8, 8, 8, 8, 8, 8}
	walkingYLengths       = []uint8{2, 3, 3, 4, 4, 3, 4, 4, 4, 5, 8, 7, 8, 8, 8, 8, 8}
	walkingHeadingLengths = []uint8{8, 5, 3, 2, 2, 2, 5, 8, 7, 5, 6}
	walkingStateLengths   = []uint8{4, 1, 4, 2, 3}
	walkingHealthLengths  = []uint8{5, 5, 5, 5, 4, 4, 1, 2}
	walkingMaskLengths    = []uint8{
		0, 7, 8, 3, 10, 7, 7, 1, 10, 10, 10, 10, 10, 10, 10, 10,
		10, 8, 7, 3, 9, 7, 7, 3, 10, 10, 10, 10, 10, 10, 10, 10,
		10, 10, 10, 9, 10, 9, 9, 8, 10, 10, 10, 10, 10, 10, 10, 10,
		10, 9, 9, 8, 10, 9, 9, 7, 10, 10, 10, 10, 10, 10, 10, 10,
	}
	idleXLengths       = []uint8{7, 6, 5, 5, 4, 3, 2, 2, 3, 4, 6, 8, 8, 8, 8, 8, 8}
	idleYLengths       = []uint8{7, 6, 5, 5, 4, 3, 2, 2, 3, 4, 6, 8, 8, 8, 8, 8, 8}
	idleHeadingLengths = []uint8{7, 7, 6, 6, 6, 5, 4, 4, 2, 1, 5}
	idleStateLengths   = []uint8{4, 4, 1, 3, 2}
	idleHealthLengths  = []uint8{5, 5, 5, 5, 4, 4, 1, 2}
	idleMaskLengths    = []uint8{
		0, 10, 10, 9, 9, 8, 8, 2, 10, 10, 10, 10, 10, 10, 10, 10,
		6, 9, 9, 9, 4, 7, 7, 1, 10, 10, 10, 10, 10, 10, 10, 10,
		6, 10, 10, 10, 10, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 10,
		4, 10, 10, 9, 9, 9, 9, 7, 10, 10, 10, 10, 10, 10, 10, 10,
	}
)

// contextCodes returns the codes of the contexts, in context order: the
// last (projectiles and anything else) keeps the schema's codes.
func contextCodes() []snapshot.Codes {
	codes := make([]snapshot.Codes, numContexts)
	for k, l := range map[int][6][]uint8{
		ctxPlayer:          {FieldX: playerXLengths, FieldY: playerYLengths, FieldHeading: playerHeadingLengths, FieldState: playerStateLengths, FieldHealth: playerHealthLengths},
		ctxCreatureWalking: {FieldX: walkingXLengths, FieldY: walkingYLengths, FieldHeading: walkingHeadingLengths, FieldState: walkingStateLengths, FieldHealth: walkingHealthLengths},
		ctxCreatureIdle:    {FieldX: idleXLengths, FieldY: idleYLengths, FieldHeading: idleHeadingLengths, FieldState: idleStateLengths, FieldHealth: idleHealthLengths},
	} {
		fields := make([]*bitpack.Code, len(l))
		for f, lengths := range l {
			if lengths != nil {
				fields[f] = bitpack.MustCode(lengths...)
			}
		}
		codes[k].Fields = fields
	}
	codes[ctxPlayer].Mask = bitpack.MustCode(playerMaskLengths...)
	codes[ctxCreatureWalking].Mask = bitpack.MustCode(walkingMaskLengths...)
	codes[ctxCreatureIdle].Mask = bitpack.MustCode(idleMaskLengths...)
	return codes
}
