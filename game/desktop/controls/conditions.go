package controls

import "time"

// Conditions are the link conditions the player adds from the network
// overlay (the game hands them to conditioner.Conn).
type Conditions struct {
	Loss float64 // 0..MaxLoss
	// Burst is the mean length of a run of lost messages, 0..MaxBurst;
	// up to 1 the losses are independent.
	Burst   float64
	Latency time.Duration
	Jitter  time.Duration
}

// The ranges and steps of the conditioner keys.
const (
	MaxLoss     = 0.5
	LossStep    = 0.05
	MaxBurst    = 8
	BurstStep   = 1
	MaxLatency  = 300 * time.Millisecond
	LatencyStep = 25 * time.Millisecond
	MaxJitter   = 100 * time.Millisecond
	JitterStep  = 10 * time.Millisecond
)

// Step applies the conditioner keys among pressed to c and reports whether
// any of them was pressed. Values stay within their ranges.
func (c Conditions) Step(pressed Keys) (Conditions, bool) {
	const keys = KeyLossDown | KeyLossUp | KeyLatencyDown | KeyLatencyUp | KeyJitterDown | KeyJitterUp | KeyBurstDown | KeyBurstUp | KeyResetLink
	if pressed&keys == 0 {
		return c, false
	}
	if pressed&KeyResetLink != 0 {
		return Conditions{}, true
	}
	if pressed&KeyLossDown != 0 {
		c.Loss -= LossStep
	}
	if pressed&KeyLossUp != 0 {
		c.Loss += LossStep
	}
	if pressed&KeyLatencyDown != 0 {
		c.Latency -= LatencyStep
	}
	if pressed&KeyLatencyUp != 0 {
		c.Latency += LatencyStep
	}
	if pressed&KeyJitterDown != 0 {
		c.Jitter -= JitterStep
	}
	if pressed&KeyJitterUp != 0 {
		c.Jitter += JitterStep
	}
	if pressed&KeyBurstDown != 0 {
		c.Burst -= BurstStep
	}
	if pressed&KeyBurstUp != 0 {
		c.Burst = max(c.Burst, 1) + BurstStep // from independent losses to runs of 2
	}
	// Round the loss to whole percent so that steps never drift.
	c.Loss = float64(int(c.Loss*100+0.5)) / 100
	c.Loss = min(max(c.Loss, 0), MaxLoss)
	c.Latency = min(max(c.Latency, 0), MaxLatency)
	c.Jitter = min(max(c.Jitter, 0), MaxJitter)
	c.Burst = min(max(c.Burst, 0), MaxBurst)
	if c.Burst <= 1 {
		c.Burst = 0 // independent losses, however reached
	}
	return c, true
}
