package linksim

import (
	"fmt"
	"math"
	"time"
)

// DefaultMaxQueue is the in-flight limit used when [Config.MaxQueue] is 0.
const DefaultMaxQueue = 4096

// MaxDelay is the largest Latency, Jitter or ReorderDelay that
// [Config.Validate] accepts: 2^60 ns, about 36.5 years. The bound keeps
// every delay computation clear of integer overflow.
const MaxDelay = time.Duration(1 << 60)

// Config describes one direction of a link. The zero Config is a perfect
// link with no delay: nothing is lost, reordered or duplicated, and every
// packet is due at the time it was sent.
type Config struct {
	// Loss is the long-run share of packets lost, 0..1. Loss 0 loses
	// nothing and Loss 1 loses everything, whatever BurstLen says.
	Loss float64

	// BurstLen is the mean length of a run of lost packets, in packets.
	// Values <= 1 mean independent (Bernoulli) loss. Above 1 the link uses
	// a two-state Gilbert model. If Loss/(1-Loss) > BurstLen no two-state
	// chain can honour both numbers; Loss wins and the effective mean burst
	// length becomes Loss/(1-Loss). Must be finite and >= 0.
	BurstLen float64

	// Latency is the one-way base delay every packet gets. Must be >= 0.
	Latency time.Duration

	// Jitter is an extra delay drawn uniformly from [0, Jitter] for each
	// packet independently. Must be >= 0.
	Jitter time.Duration

	// Reorder is the chance, 0..1, that a packet gets an extra delay of
	// ReorderDelay, so that packets sent after it can overtake it.
	Reorder float64

	// ReorderDelay is the extra delay of a reordered packet. When it is 0
	// and Reorder > 0 it defaults to 2*Jitter + 1ms. Must be >= 0.
	ReorderDelay time.Duration

	// Duplicate is the chance, 0..1, that a packet which is not lost
	// arrives twice. The copy has the same bytes, the base Latency and its
	// own jitter draw; it never gets the reorder delay.
	Duplicate float64

	// MaxQueue is how many packets may be in flight at once; a packet sent
	// while the link is full is dropped and counted in [Stats].Dropped, and
	// a duplicate that does not fit is silently not made. 0 means
	// [DefaultMaxQueue]. Must be >= 0.
	MaxQueue int
}

// Validate reports whether c is usable: Loss, Reorder and Duplicate in
// [0, 1]; BurstLen finite and >= 0; Latency, Jitter and ReorderDelay in
// [0, MaxDelay]; MaxQueue >= 0. NaN is rejected everywhere. The error wraps
// [ErrConfig].
func (c Config) Validate() error {
	probs := [...]struct {
		name string
		v    float64
	}{{"Loss", c.Loss}, {"Reorder", c.Reorder}, {"Duplicate", c.Duplicate}}
	for _, p := range probs {
		if !(p.v >= 0 && p.v <= 1) { // also catches NaN
			return fmt.Errorf("%w: %s = %v, want a value in [0, 1]", ErrConfig, p.name, p.v)
		}
	}
	if !(c.BurstLen >= 0) || math.IsInf(c.BurstLen, 1) {
		return fmt.Errorf("%w: BurstLen = %v, want a finite value >= 0", ErrConfig, c.BurstLen)
	}
	durs := [...]struct {
		name string
		v    time.Duration
	}{{"Latency", c.Latency}, {"Jitter", c.Jitter}, {"ReorderDelay", c.ReorderDelay}}
	for _, d := range durs {
		if d.v < 0 || d.v > MaxDelay {
			return fmt.Errorf("%w: %s = %v, want a value in [0, %v]", ErrConfig, d.name, d.v, MaxDelay)
		}
	}
	if c.MaxQueue < 0 {
		return fmt.Errorf("%w: MaxQueue = %d, want a value >= 0", ErrConfig, c.MaxQueue)
	}
	return nil
}

// withDefaults fills in ReorderDelay and MaxQueue. c must be valid.
func (c Config) withDefaults() Config {
	if c.Reorder > 0 && c.ReorderDelay == 0 {
		c.ReorderDelay = 2*c.Jitter + time.Millisecond
	}
	if c.MaxQueue == 0 {
		c.MaxQueue = DefaultMaxQueue
	}
	return c
}

type lossKind uint8

const (
	lossNone        lossKind = iota // Loss == 0
	lossAll                         // Loss == 1
	lossIndependent                 // Bernoulli(p)
	lossGilbert                     // two-state chain
)

// lossModel is a Gilbert-Elliott chain in which the Bad state loses every
// packet and the Good state none.
type lossModel struct {
	kind lossKind
	p    float64 // independent loss probability
	pGB  float64 // P(Good -> Bad) per packet
	pBG  float64 // P(Bad -> Good) per packet
	bad  bool    // current state; kept across reconfiguration
}

// configure sets the transition probabilities for a valid loss share and
// burst length, keeping the current state.
func (m *lossModel) configure(loss, burst float64) {
	m.p, m.pGB, m.pBG = 0, 0, 0
	switch {
	case loss <= 0:
		m.kind = lossNone
		m.bad = false
	case loss >= 1:
		m.kind = lossAll
		m.bad = true
	case burst <= 1:
		m.kind = lossIndependent
		m.p = loss
	default:
		m.kind = lossGilbert
		m.pBG = 1 / burst
		m.pGB = loss / ((1 - loss) * burst)
		if m.pGB > 1 {
			// Infeasible pair: keep the loss share, lengthen the bursts.
			m.pGB = 1
			m.pBG = (1 - loss) / loss
		}
	}
}

// lose advances the chain by one packet using u in [0, 1) and reports
// whether that packet is lost.
func (m *lossModel) lose(u float64) bool {
	switch m.kind {
	case lossNone:
		m.bad = false
	case lossAll:
		m.bad = true
	case lossIndependent:
		m.bad = u < m.p
	case lossGilbert:
		if m.bad {
			if u < m.pBG {
				m.bad = false
			}
		} else if u < m.pGB {
			m.bad = true
		}
	}
	return m.bad
}

// DeriveSeed returns a second seed from seed (splitmix64's finalizer), for
// the other direction of a link pair: both directions are reproducible from
// one seed and uncorrelated.
func DeriveSeed(seed uint64) uint64 {
	x := seed + 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
