// Package traffic is a seeded model of world traffic for measuring snapshot
// formats: a fixed set of entities that take short random walks and rest in
// between.
//
// # Motion
//
// Whether an entity moves on a tick follows a two-state Markov chain. An
// entity that did not move on the previous tick starts a walk with
// probability a (StartChance) and moves on that same tick. A walking entity
// moves on every tick, and each of its moving ticks (the first one included)
// is its last with probability s (StopChance); on its last moving tick its
// state byte goes back to idle, and on the following tick it does not move.
// Hence
//
//	P(moves on t+1 | moved on t)      = 1 - s
//	P(moves on t+1 | did not move on t) = a
//
// whose stationary share of moving entities is p = a / (a + s), so
// s = a(1-p)/p. The share of entities that moved at least once during the
// last k ticks, which is the share whose state differs from a baseline k
// ticks old, is then c(k) = 1 - (1-p)(1-a)^(k-1) (see ChangedShare). Walks
// last 1/s ticks on average.
//
// A walking entity moves at WalkSpeed along its heading. On each moving tick
// it turns, with probability TurnChance, by an angle drawn uniformly from
// [-TurnRate*dt, +TurnRate*dt], and it bounces off the edges of the square
// world by reflecting its heading. An idle entity changes nothing.
//
// # Calibration
//
// The defaults reproduce, within a few percent, the bandwidth a byte-aligned
// changed-bitmask format (refformat.ByteMask) needs on the published runs this
// model imitates: 100 entities at 10 Hz with a baseline two ticks old, at 5,
// 15, 30, 60 and 100 % of entities moving. The calibration test checks this.
//
// # State
//
// A World keeps float64 positions and headings and quantizes them only in
// Fill, into the fields x, y, heading and state of Config.Schema. Entity ids
// are 0..N-1 with generation 0: entities never spawn or despawn. Step and Fill
// are deterministic from the seed and allocate nothing.
//
// # Coding
//
// The schema carries what a delta needs to code the model's traffic well
// (see package delta): a predictor from the model's own motion (a walking
// entity walks on along its heading; one whose state flipped walked about
// half the gap) and residual and mask codes trained on the model's traffic
// (TestTrainedCodes retrains them). The reference formats read only the
// fields, so they see the same schema.
package traffic
