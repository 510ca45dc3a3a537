package protocol

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// predictor guesses an entity's row from its baseline row, the way the
// arena moves it (see snapshot.Predictor):
//   - a projectile flies straight along its heading at ProjectileSpeed,
//     on the wire by a whole number of position units a tick (shotSteps,
//     see Fill), so its prediction is exact;
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
		shot:     newShotSteps(),
		creature: snapshot.NewHeadingSteps(HeadingQuant.Bits(), arena.CreatureSpeed*arena.Dt*UnitsPerPx),
	}
}

// newShotSteps returns a projectile's step a tick on the wire, per
// heading, in whole position units.
func newShotSteps() *snapshot.HeadingSteps {
	return snapshot.NewHeadingSteps(HeadingQuant.Bits(), arena.ProjectileSpeed*arena.Dt*UnitsPerPx).Whole()
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

// Moves implements snapshot.Mover: a projectile flies on, exactly as
// predicted (see Fill); whatever else moves does not keep to its
// prediction closely enough to be coded against it when unchanged.
func (p *predictor) Moves(row []uint32) bool { return row[FieldKind] == KindProjectile }

// The predictor is the schema's Spawner too: a player makes projectiles.
// A projectile leaves its shooter's centre along the shooter's aim and
// flies one step on the tick it was fired, so one fired age ticks before
// the delta's tick is age+1 steps from where its shooter stood then, which
// Spawn guesses between the shooter's baseline and current positions.

// Spawns implements snapshot.Spawner: a live player fires.
func (p *predictor) Spawns(row []uint32) bool {
	return row[FieldKind] == KindPlayer && row[FieldState]&StateDead == 0
}

// Spawn implements snapshot.Spawner.
// A projectile's heading is guessed as its shooter's aim then, between
// its aim in the baseline and now; its position
// from its own heading, which a delta writes before it.
func (p *predictor) Spawn(now, then []uint32, gap, age uint32, row, pred []uint32) {
	x, y, h := now[FieldX], now[FieldY], now[FieldHeading]
	switch {
	case age >= gap:
		x, y, h = then[FieldX], then[FieldY], then[FieldHeading]
	case age > 0:
		k := gap - age
		x, y = between(then[FieldX], now[FieldX], k, gap), between(then[FieldY], now[FieldY], k, gap)
		// The aim turned the short way round.
		const half = 1 << (headingBits - 1)
		turn := int64((now[FieldHeading]-then[FieldHeading]+half)&(1<<headingBits-1)) - half
		h = uint32(int64(then[FieldHeading]) + turn*int64(k)/int64(gap))
	}
	pred[FieldX], pred[FieldY] = p.shot.Advance(x, y, row[FieldHeading], age+1)
	pred[FieldHeading] = h
	pred[FieldKind] = KindProjectile
	pred[FieldState] = 0
	pred[FieldHealth] = 0
}

// between returns the value k/n of the way from a to b, truncated.
func between(a, b, k, n uint32) uint32 {
	d := int64(b) - int64(a)
	return uint32(int64(a) + d*int64(k)/int64(n))
}

// headingBits is the width of the heading field.
const headingBits = 10

// spawnReach bounds how far from its shooter, in position units, Age
// looks for a projectile: its whole flight and then some.
const spawnReach = int64((arena.ProjectileSpeed*arena.ProjectileTicks*arena.Dt + 200) * UnitsPerPx)

// Age implements snapshot.Spawner: a projectile's distance from a player
// along its heading, in steps of its flight, less the step of the tick it
// was fired; it cannot be the player's if it is too far to either side.
func (p *predictor) Age(now, child []uint32) (uint32, bool) {
	if child[FieldKind] != KindProjectile {
		return 0, false
	}
	dx := int64(child[FieldX]) - int64(now[FieldX])
	dy := int64(child[FieldY]) - int64(now[FieldY])
	if dx > spawnReach || dx < -spawnReach || dy > spawnReach || dy < -spawnReach {
		return 0, false
	}
	sx, sy := p.shot.Step(child[FieldHeading])
	s2 := int64(sx)*int64(sx) + int64(sy)*int64(sy)
	along := ((dx*int64(sx)+dy*int64(sy))*256 + s2/2) / s2 // steps, rounded (towards +inf at halves, near enough)
	cross := dx*int64(sy) - dy*int64(sx)                   // off the line, times the step's length
	lim := 1024 + 64*max(along, 0)
	if cross*cross > lim*lim*s2 {
		return 0, false
	}
	return uint32(min(max(along-1, 0), 255)), true
}

// Contexts of changed entities (see snapshot.Contexter): each kind of
// entity changes its own way, so each has its own mask and residual codes
// (contextCodes). A player runs by input, which the predictor cannot
// guess: its residuals are wide. A walking creature keeps close to its
// prediction; an idle one mostly turns, or starts a walk. A projectile
// differs from its prediction only when it hits something, too rarely to
// train a code on: it keeps the schema's codes.
const (
	ctxPlayer = iota
	ctxCreatureWalking
	ctxCreatureIdle
	ctxOther
	numContexts
)

// ContextName names context k of the changed entities, as
// delta.Sizes.ByContext counts them: "players", "walking creatures", "idle
// creatures" or "projectiles" (with kind 3, which no entity has); "" for a
// k that is none.
func ContextName(k int) string {
	switch k {
	case ctxPlayer:
		return "players"
	case ctxCreatureWalking:
		return "walking creatures"
	case ctxCreatureIdle:
		return "idle creatures"
	case ctxOther:
		return "projectiles"
	}
	return ""
}

// Contexts implements snapshot.Contexter.
func (p *predictor) Contexts() int { return numContexts }

// Context implements snapshot.Contexter.
func (p *predictor) Context(base []uint32) int {
	switch base[FieldKind] {
	case KindPlayer:
		return ctxPlayer
	case KindCreature:
		if base[FieldState]&StateWalking != 0 {
			return ctxCreatureWalking
		}
		return ctxCreatureIdle
	default:
		return ctxOther
	}
}
