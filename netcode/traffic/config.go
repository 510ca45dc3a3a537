package traffic

import (
	"errors"
	"fmt"
	"math"

	"github.com/sightline-game/sightline/netcode/quant"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// ErrConfig is returned (wrapped) for an unusable Config.
var ErrConfig = errors.New("traffic: invalid config")

// Field positions in the schema's rows.
const (
	FieldX       = 0
	FieldY       = 1
	FieldHeading = 2
	FieldState   = 3
)

// Values of the state field.
const (
	StateIdle    = 0
	StateWalking = 1
)

// Schema constants: entity ids are 0..Entities-1 with generation 0.
const (
	IndexBits      = 12
	GenerationBits = 4
	MaxEntities    = 1 << IndexBits
)

// Calibrated defaults; see the calibration test.
const (
	// DefaultStopChance gives walks of 1/0.22, about 4.5 ticks, on average.
	DefaultStopChance = 0.22
	// DefaultTurnChance makes the quantized heading of an always-walking
	// entity change over a two-tick window in about half the cases.
	DefaultTurnChance = 0.28
)

// Config sets up a World. The zero value is not usable: start from
// DefaultConfig and change what you need.
type Config struct {
	// Entities is the number of entities, 1 to MaxEntities (4096).
	Entities int
	// TickRate is the simulation rate in ticks per second (Hz); dt = 1/TickRate.
	TickRate float64
	// Moving is p, the stationary share of entities moving on any tick, 0 to 1.
	// 0 means nobody ever moves; 1 means every entity walks forever.
	Moving float64
	// Start is a, the chance per tick that an entity which did not move on the
	// previous tick starts a walk. 0 means: derive it from Moving and
	// StopChance, a = s*p/(1-p), which keeps the mean walk length fixed
	// whatever the share. When Start is set, the stop chance is derived from it
	// instead, s = a(1-p)/p, and must not exceed 1.
	Start float64
	// StopChance is s, the chance that a moving tick is a walk's last, used
	// only when Start is 0. Walks last 1/s ticks on average. If the derived a
	// would exceed 1 (p > 1/(1+s)), a is set to 1 and s to (1-p)/p: walks
	// get shorter so the share can stay p.
	StopChance float64
	// WorldSize is the side of the square world in pixels; positions lie in
	// [0, WorldSize].
	WorldSize float64
	// PosPrecision is the quantization step of x and y in pixels. The field
	// width follows from quant.NewLinear(0, WorldSize, PosPrecision): 16 bits
	// for the defaults.
	PosPrecision float64
	// HeadingBits is the width of the quantized heading (quant.NewAngle), 1 to 31.
	HeadingBits uint8
	// WalkSpeed is the speed of a walking entity in pixels per second.
	WalkSpeed float64
	// TurnRate bounds a turn, in degrees per second: a turn on one tick is
	// uniform in [-TurnRate/TickRate, +TurnRate/TickRate] degrees.
	TurnRate float64
	// TurnChance is the chance that a walking entity turns on a moving tick, 0 to 1.
	TurnChance float64
	// Seed makes a run reproducible: the same Config gives the same run.
	Seed uint64
}

// DefaultConfig returns the calibrated model: 100 entities at 10 Hz, 15 %
// moving, in a 4096 px world quantized to 1/8 px.
func DefaultConfig() Config {
	return Config{
		Entities:     100,
		TickRate:     10,
		Moving:       0.15,
		Start:        0,
		StopChance:   DefaultStopChance,
		WorldSize:    4096,
		PosPrecision: 0.125,
		HeadingBits:  10,
		WalkSpeed:    48,
		TurnRate:     90,
		TurnChance:   DefaultTurnChance,
		Seed:         1,
	}
}

// Validate reports whether the Config is usable.
func (c Config) Validate() error {
	_, _, err := c.chances()
	if err != nil {
		return err
	}
	_, _, err = c.quantizers()
	if err != nil {
		return err
	}
	switch {
	case c.Entities < 1 || c.Entities > MaxEntities:
		return fmt.Errorf("%w: Entities %d (want 1 to %d)", ErrConfig, c.Entities, MaxEntities)
	case !(c.TickRate > 0) || math.IsInf(c.TickRate, 0):
		return fmt.Errorf("%w: TickRate %v", ErrConfig, c.TickRate)
	case !(c.WalkSpeed >= 0) || math.IsInf(c.WalkSpeed, 0):
		return fmt.Errorf("%w: WalkSpeed %v", ErrConfig, c.WalkSpeed)
	case !(c.TurnRate >= 0) || math.IsInf(c.TurnRate, 0):
		return fmt.Errorf("%w: TurnRate %v", ErrConfig, c.TurnRate)
	case !(c.TurnChance >= 0 && c.TurnChance <= 1):
		return fmt.Errorf("%w: TurnChance %v (want 0 to 1)", ErrConfig, c.TurnChance)
	}
	return nil
}

// Chances returns the start chance a and stop chance s the model uses,
// derived as described on Config.Start and Config.StopChance.
func (c Config) Chances() (start, stop float64, err error) { return c.chances() }

func (c Config) chances() (a, s float64, err error) {
	p := c.Moving
	if !(p >= 0 && p <= 1) {
		return 0, 0, fmt.Errorf("%w: Moving %v (want 0 to 1)", ErrConfig, p)
	}
	if !(c.Start >= 0 && c.Start <= 1) {
		return 0, 0, fmt.Errorf("%w: Start %v (want 0 to 1)", ErrConfig, c.Start)
	}
	switch {
	case p == 0:
		return 0, 1, nil // nobody starts; s is moot
	case p == 1:
		return 1, 0, nil // everybody walks forever; a is moot
	case c.Start > 0:
		a = c.Start
		s = a * (1 - p) / p
		if s > 1 {
			return 0, 0, fmt.Errorf("%w: Start %v is too large for Moving %v (stop chance %v > 1)", ErrConfig, a, p, s)
		}
		return a, s, nil
	}
	s = c.StopChance
	if !(s > 0 && s <= 1) {
		return 0, 0, fmt.Errorf("%w: StopChance %v (want above 0, at most 1)", ErrConfig, s)
	}
	a = s * p / (1 - p)
	if a > 1 {
		a, s = 1, (1-p)/p
	}
	return a, s, nil
}

func (c Config) quantizers() (pos quant.Linear, heading quant.Angle, err error) {
	if !(c.WorldSize > 0) || math.IsInf(c.WorldSize, 0) {
		return pos, heading, fmt.Errorf("%w: WorldSize %v", ErrConfig, c.WorldSize)
	}
	pos, err = quant.NewLinear(0, c.WorldSize, c.PosPrecision)
	if err != nil {
		return pos, heading, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	heading, err = quant.NewAngle(c.HeadingBits)
	if err != nil {
		return pos, heading, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return pos, heading, nil
}

// Schema returns the snapshot schema of the model: fields x, y (width from
// the position quantizer), heading (HeadingBits) and state (8 bits,
// StateIdle or StateWalking); IndexBits 12, GenerationBits 4 and room for
// Entities entities; the model's predictor, and its trained codes where the
// field widths are the default ones.
func (c Config) Schema() (*snapshot.Schema, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	pos, heading, _ := c.quantizers()
	s, err := snapshot.NewSchema(IndexBits, GenerationBits, c.Entities,
		snapshot.Field{Name: "x", Bits: pos.Bits()},
		snapshot.Field{Name: "y", Bits: pos.Bits()},
		snapshot.Field{Name: "heading", Bits: heading.Bits()},
		snapshot.Field{Name: "state", Bits: 8},
	)
	if err != nil {
		return nil, err
	}
	return withCodes(s, c), nil
}

// ChangedShare returns c(k) = 1 - (1-p)(1-a)^(k-1), the expected share of
// entities whose state differs from a baseline k ticks old (k >= 1) when a
// share p moves on each tick and a is the start chance.
func ChangedShare(p, a float64, k int) float64 {
	if k < 1 {
		return 0
	}
	return 1 - (1-p)*math.Pow(1-a, float64(k-1))
}
