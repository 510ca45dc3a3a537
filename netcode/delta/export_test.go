package delta

// The helpers of this package's tests that its external tests use too
// (trained_test.go: package train imports delta).
var (
	// RandomWorld is randomWorld.
	RandomWorld = randomWorld
	// Evolve is evolve.
	Evolve = evolve
	// RoundTrip is roundTrip.
	RoundTrip = roundTrip
)

type (
	// DriftPredictor is driftPredictor.
	DriftPredictor = driftPredictor
	// MoverPredictor is moverPredictor.
	MoverPredictor = moverPredictor
	// ContextDrift is contextDrift.
	ContextDrift = contextDrift
)
