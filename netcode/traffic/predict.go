package traffic

import "github.com/sightline-game/sightline/netcode/snapshot"

// predictor guesses where the model's entities are from their baseline
// row: an entity that is walking and still walks went on along its heading
// for the whole gap; one whose state flipped (a walk that ended, or began)
// walked about half of it; an idle one that changed but is idle again took
// a short walk, guessed one step. Heading and state are guessed unchanged.
type predictor struct {
	steps *snapshot.HeadingSteps
}

func newPredictor(c Config) *predictor {
	return &predictor{steps: snapshot.NewHeadingSteps(c.HeadingBits, c.WalkSpeed/c.TickRate/c.PosPrecision)}
}

// Predict implements snapshot.Predictor.
func (p *predictor) Predict(base []uint32, gap, mask uint32, pred []uint32) {
	pred[FieldHeading], pred[FieldState] = base[FieldHeading], base[FieldState]
	// Chosen without a branch: a flipped state overrides a walk.
	n := uint32(1)
	if base[FieldState] == StateWalking {
		n = gap
	}
	if mask&(1<<FieldState) != 0 {
		n = (gap + 1) / 2
	}
	pred[FieldX], pred[FieldY] = p.steps.Advance(base[FieldX], base[FieldY], base[FieldHeading], n)
}
