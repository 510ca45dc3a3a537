//go:build !js

package webrtc

import "time"

// drainPace decides when a round socket is drained between rounds: often
// enough that the kernel's receive buffer is at most about 1/drainFill
// full when it is, from the rate it has been filling at. A quiet socket,
// or one whose buffer holds a whole round's traffic with room to spare, is
// drained only in rounds (no wake-up of its own); a flood has it drained
// every few milliseconds, into the intake, which keeps only what can be a
// peer's, so the kernel does not drop players' datagrams for want of
// room. The pace holds for a few seconds after a flood (drainHold), so
// that one that comes in bursts does not overflow the buffer at each.
type drainPace struct {
	interval time.Duration // the most time between rounds

	last        time.Time // the last drain
	windowStart time.Time // the rate is measured over windows of drainWindow
	windowBytes int       // what the kernel held at the drains of the window
	rate        float64   // bytes a second the buffer fills at, estimated
	held        time.Time // when a sample last came to half the rate or more
	every       time.Duration
}

// The pacing's parameters (see drainPace).
const (
	drainFill        = 3
	drainWindow      = 2 * time.Millisecond
	minDrainInterval = 500 * time.Microsecond
	// drainHold is how long the rate is held after a flood before it may
	// fall: a flood that pauses and comes back finds the socket still
	// drained at its pace, where the first round after it came would find
	// the buffer full.
	drainHold = 5 * time.Second
)

// drained records a drain at now that found the kernel holding held bytes
// of its most, rcvbuf (-1s: it does not say).
func (p *drainPace) drained(now time.Time, held, rcvbuf int) {
	p.last = now
	if held < 0 || rcvbuf <= 0 {
		return
	}
	if p.windowStart.IsZero() {
		p.windowStart = now
		return
	}
	p.windowBytes += held
	window := now.Sub(p.windowStart)
	if window < drainWindow && held < rcvbuf/drainFill {
		return
	}
	// A rise is taken at once, a fall a quarter at a time once no sample
	// has come to half the rate for drainHold.
	sample := float64(p.windowBytes) / max(window, drainWindow/16).Seconds()
	if sample >= p.rate/2 {
		p.held = now
	}
	switch {
	case sample >= p.rate:
		p.rate = sample
	case now.Sub(p.held) >= drainHold:
		p.rate += (sample - p.rate) / 4
	}
	p.windowStart, p.windowBytes = now, 0
	p.every = 0
	if p.rate > 0 {
		every := time.Duration(float64(rcvbuf) / drainFill / p.rate * float64(time.Second))
		if every < p.interval {
			p.every = max(every, minDrainInterval)
		}
	}
}

// next is when the next drain is due (zero: at the next round).
func (p *drainPace) next() time.Time {
	if p.every == 0 {
		return time.Time{}
	}
	return p.last.Add(p.every)
}
