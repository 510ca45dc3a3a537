package protocol

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// predictor guesses an entity's row from its baseline row, the way the
// arena moves it (see snapshot.Predictor):
//   - a projectile flies straight along its heading at ProjectileSpeed;
//   - a walking creature walks along its heading at CreatureSpeed; one
//     whose state changed may have stopped or started: half the gap;
//   - a player moves by its input, which the row does not carry: it is
//     guessed where it was.
//
// Everything else is guessed unchanged.
type predictor struct {
	shot, creature *snapshot.HeadingSteps
}

func newPredictor() *predictor {
	return &predictor{
		shot:     snapshot.NewHeadingSteps(HeadingQuant.Bits(), arena.ProjectileSpeed*arena.Dt*UnitsPerPx),
		creature: snapshot.NewHeadingSteps(HeadingQuant.Bits(), arena.CreatureSpeed*arena.Dt*UnitsPerPx),
	}
}

// Predict implements snapshot.Predictor.
func (p *predictor) Predict(base []uint32, gap, mask uint32, pred []uint32) {
	copy(pred, base)
	var steps *snapshot.HeadingSteps
	n := gap
	switch base[FieldKind] {
	case KindProjectile:
		steps = p.shot
	case KindCreature:
		walking := base[FieldState]&StateWalking != 0
		switch {
		case mask&(1<<FieldHeading) != 0 && !walking:
			return // started a walk, and turned as it did: no idea where to
		case mask&(1<<FieldState) != 0:
			n = (gap + 1) / 2
		case !walking:
			return
		}
		steps = p.creature
	default:
		return
	}
	pred[FieldX], pred[FieldY] = steps.Advance(base[FieldX], base[FieldY], base[FieldHeading], n)
}
