package snapshot

import "math"

// Predictor guesses an entity's row at a later tick from its row in a
// baseline: a delta codes each changed field as its difference from the
// guess, so the better the guess, the fewer the bits. A game gives its own
// (Schema.Predictor), from how its entities move.
//
// Predict reads one entity's baseline row base, the gap in ticks from the
// baseline to the predicted tick (at least 1) and the entity's field mask
// (bit f set: field f differs from the baseline; never 0), and writes the
// predicted row into pred (len(pred) == len(base); pred never aliases
// base). Only the fields of the mask are read from pred: the others keep
// their baseline values. The mask lets a prediction use what is known to
// have changed (a state flag that flipped says a walk started or ended). Both ends of a
// connection must compute the same bits on every platform: a Predictor uses
// integer arithmetic only (tables built with integer arithmetic included,
// see HeadingSteps), never floating point, and no state but its own
// immutable tables. It must not allocate. Predicted values may exceed their
// field's width; the codec wraps them.
type Predictor interface {
	Predict(base []uint32, gap, mask uint32, pred []uint32)
}

// Mover is a Predictor that says which rows it moves: those whose
// prediction is where the entity is unless something happened to it (a
// projectile in flight). A delta of a schema whose Predictor is a Mover
// codes such an entity against its prediction instead of its baseline row:
// it costs nothing when it is where predicted, and is a changed entity
// whose mask names the fields that differ from the prediction otherwise
// (one held back at its baseline row too). For a row it moves, Predict
// must not read the mask. Moves is called per entity and packet, on both
// ends: keep it cheap, and like Predict free of state and allocation.
type Mover interface {
	Moves(row []uint32) bool
}

// Spawner guesses the row of an entity that appears in a delta from an
// entity that may have made it: a shot from its shooter, a brood from its
// nest. A delta codes a new entity as its difference from such a guess,
// naming the maker and how long ago it made the entity, when that is
// shorter than its difference from the entity before it in slot order. A
// game gives its own (Schema.Spawner). Like a Predictor it uses integer
// arithmetic only, keeps no state but immutable tables, and allocates
// nothing: both ends must compute the same bits.
type Spawner interface {
	// Spawns reports whether an entity of this row can make others: only
	// such entities are named as makers.
	Spawns(row []uint32) bool
	// Spawn writes into pred the guessed row of an entity that the maker
	// made age ticks before the delta's tick (0: on that tick). now is the
	// maker's row at the delta's tick, then its row in the baseline, gap
	// ticks earlier. A delta writes a new entity's fields last to first:
	// the guess of field f may use the entity's own fields after f, which
	// row holds (its fields up to f are not known yet and hold anything).
	// Predicted values may exceed their field's width; the codec wraps
	// them.
	Spawn(now, then []uint32, gap, age uint32, row, pred []uint32)
	// Age returns, for the encoder, about how many ticks ago the maker
	// whose row is now made the entity whose row is child, or false if it
	// cannot have made it. The encoder tries ages near it.
	Age(now, child []uint32) (uint32, bool)
}

// HeadingSteps is a table for predictors of bodies that move along their
// quantized heading: per heading, the step a body moving at a fixed speed
// takes in one tick, in 1/256 of a position unit. It is built with integer
// arithmetic only, so every platform builds the same table, and is
// immutable once built.
type HeadingSteps struct {
	steps []int32 // per table entry: dx, dy
	mask  uint32  // of a table index
	shift uint8   // heading >> shift indexes the table
}

// stepTableBits bounds the table: headings finer than 4096 steps a turn
// share entries.
const stepTableBits = 12

// NewHeadingSteps returns the steps of a body moving unitsPerTick position
// units per tick along headings of headingBits bits (1 to 32). A heading h
// points at the angle h/2^headingBits of a turn from +x towards +y, the way
// quant.Angle quantizes it. unitsPerTick is rounded to 1/256 first; only
// that rounding, which is exact on every platform, touches floating point.
func NewHeadingSteps(headingBits uint8, unitsPerTick float64) *HeadingSteps {
	headingBits = min(max(headingBits, 1), 32)
	tb := min(headingBits, stepTableBits)
	n := 1 << tb
	speed := int64(math.Round(unitsPerTick * 256))
	s := &HeadingSteps{steps: make([]int32, 2*n), mask: uint32(n - 1), shift: headingBits - tb}
	for i := range n {
		c, sn := cosSin(i, tb)
		s.steps[2*i] = int32(roundShift(speed*c, 30))
		s.steps[2*i+1] = int32(roundShift(speed*sn, 30))
	}
	return s
}

// Whole returns the table with every step rounded to whole position units
// (halves away from zero). A body that moves by whole units each tick has
// a path that adds up: Advance(Advance(p, h, a), h, b) == Advance(p, h, a+b)
// exactly, so a sender that places it on that path lets the receiver
// predict it without error.
func (s *HeadingSteps) Whole() *HeadingSteps {
	w := &HeadingSteps{steps: make([]int32, len(s.steps)), mask: s.mask, shift: s.shift}
	for i, v := range s.steps {
		if v < 0 {
			w.steps[i] = -((-v + 128) >> 8 << 8)
		} else {
			w.steps[i] = (v + 128) >> 8 << 8
		}
	}
	return w
}

// Units returns the step of one tick along heading h in whole position
// units, rounded (halves up): of a table made by Whole, its exact step.
func (s *HeadingSteps) Units(h uint32) (dx, dy int32) {
	dx, dy = s.Step(h)
	return (dx + 128) >> 8, (dy + 128) >> 8
}

// Step returns the step, in 1/256 units, of one tick along heading h.
func (s *HeadingSteps) Step(h uint32) (dx, dy int32) {
	i := int(h>>s.shift&s.mask) * 2
	st := s.steps[i : i+2 : i+2]
	return st[0], st[1]
}

// Advance returns (x, y) moved gap ticks along heading h, rounded to whole
// units (halves up). The results wrap like uint32; the codec wraps them to
// the field.
func (s *HeadingSteps) Advance(x, y, h, gap uint32) (uint32, uint32) {
	i := int(h>>s.shift&s.mask) * 2
	st := s.steps[i : i+2 : i+2]
	g := int64(gap)
	return x + uint32((g*int64(st[0])+128)>>8), y + uint32((g*int64(st[1])+128)>>8)
}

// roundShift returns v / 2^n rounded to the nearest integer (halves up).
func roundShift(v int64, n uint) int64 { return (v + 1<<(n-1)) >> n }

// cosSin returns the cosine and sine of step i of a turn of 2^bits steps,
// in units of 2^-30, by a polynomial in integers.
func cosSin(i int, bits uint8) (int64, int64) {
	n := 1 << bits
	quarter := n / 4
	if quarter == 0 { // 1 or 2 steps a turn: 0 and, with 2, a half turn
		if i == 0 {
			return 1 << 30, 0
		}
		return -1 << 30, 0
	}
	q, r := i/quarter, i%quarter
	// sin and cos of r quarter-steps into the quadrant.
	t := int64(r) << 30 / int64(quarter)
	s, c := sinQuarter(t), sinQuarter(1<<30-t)
	switch q {
	case 0:
		return c, s
	case 1:
		return -s, c
	case 2:
		return -c, -s
	default:
		return s, -c
	}
}

// sinQuarter returns sin(t·π/2) for t in [0, 1], both in units of 2^-30:
// the Taylor series to the 11th power, within 1e-7.
func sinQuarter(t int64) int64 {
	const a1, a3, a5, a7, a9, a11 = 1686629713, -693598668, 85569306, -5026995, 172272, -3864
	t2 := t * t >> 30
	acc := int64(a11)
	acc = a9 + acc*t2>>30
	acc = a7 + acc*t2>>30
	acc = a5 + acc*t2>>30
	acc = a3 + acc*t2>>30
	acc = a1 + acc*t2>>30
	return min(acc*t>>30, 1<<30)
}

// Values returns every entity's row, one after the other in slot order
// (len(IDs()) rows of NumFields values): for codecs and predictors that
// walk rows in bulk. The slice is the snapshot's own: do not modify it.
func (s *Snapshot) Values() []uint32 { return s.values }

// Contexter is a Predictor that sorts changed entities into contexts by
// their baseline row, which both ends hold before an entity's mask is
// read: a delta codes the mask and residuals of an entity of context k
// with Schema.Contexts[k], so entities whose changes differ in kind (a
// player run by input, a creature that walks as predicted) each get codes
// trained on their own. Like Predict, Context is pure integer work without
// state or allocation.
type Contexter interface {
	// Contexts returns how many contexts there are: 1 to 16.
	Contexts() int
	// Context returns the context of an entity whose baseline row is base:
	// 0 to Contexts()-1 (anything else is read as 0).
	Context(base []uint32) int
}
