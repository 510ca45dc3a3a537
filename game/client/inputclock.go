package client

import "time"

// Input clock tuning.
const (
	// TargetSpare is the number of spare inputs an InputClock keeps in the
	// server's queue on average: a little above none, so that an input
	// late by a little still comes in time, while none waits long. (The
	// server tells a spare input only when the next one has come before
	// its step: the feedback has a tick's resolution, and the clock keeps
	// inputs coming about a tick before their step, TargetSpare of them
	// more than that.)
	TargetSpare = 0.3
	// spareGain is the weight of a report in the running mean of the
	// spare inputs (about half a second of snapshots at 30 Hz).
	spareGain = 1.0 / 16
	// paceGain is how much longer an input's period grows per spare input
	// above TargetSpare (and shorter below): 4% a tick, so a tick of error
	// is made good in under a second, far slower than a round trip.
	paceGain = 0.04
	// maxPace bounds how much faster or slower than the server's ticks
	// inputs go: 5%, which nobody sees in their own player's speed.
	maxPace = 0.05
	// maxCatchUp bounds the inputs one call of Due asks for after a stall;
	// a longer stall is skipped, not caught up.
	maxCatchUp = 2
)

// InputClock says when a client's inputs are due: one a tick of the
// server's, a little sooner or later than that so that the server's queue
// holds TargetSpare inputs on average. The server keeps the queue's depth
// by the client's timing, never by dropping or inventing inputs (either is
// a correction on the player's own screen): each snapshot says how many of
// the client's inputs waited after its tick's step took one, or -1 if none
// came in time (Client.TakeSpare), and the clock runs up to 5% slow while
// inputs wait more than that, up to 5% fast while fewer. (An input lost on
// the way is covered by its datagram's second copy: Config.InputCopies.)
//
// The zero InputClock is not ready; NewInputClock makes one. It is not
// safe for concurrent use.
type InputClock struct {
	tick  time.Duration
	next  time.Time // when the next input is due
	last  time.Time // when the last one was
	spare float64   // running mean of the reports
	have  bool      // spare holds a report
}

// NewInputClock returns a clock for a server ticking tickRate times a
// second.
func NewInputClock(tickRate float64) *InputClock {
	if !(tickRate > 0) {
		tickRate = 30
	}
	return &InputClock{tick: time.Duration(float64(time.Second) / tickRate)}
}

// Report takes the sum and the number of the spare-input reports of the
// snapshots decoded since the last call (Client.TakeSpare).
func (c *InputClock) Report(sum, n int) {
	for range n {
		v := float64(sum) / float64(n)
		if !c.have {
			c.spare, c.have = v, true
			continue
		}
		c.spare += spareGain * (v - c.spare)
	}
}

// Period returns how far apart inputs go now.
func (c *InputClock) Period() time.Duration {
	if !c.have {
		return c.tick
	}
	pace := min(max(paceGain*(c.spare-TargetSpare), -maxPace), maxPace)
	return time.Duration(float64(c.tick) * (1 + pace))
}

// Due returns how many inputs are due at now: usually 0 or 1, at most 2
// after a late frame. The first call makes one due.
func (c *InputClock) Due(now time.Time) int {
	if c.next.IsZero() {
		c.next = now
	}
	p := c.Period()
	if now.Sub(c.next) > maxCatchUp*p {
		c.next = now // a stall: skipped, not caught up
	}
	k := 0
	for k < maxCatchUp && !now.Before(c.next) {
		k++
		c.next = c.next.Add(p)
	}
	if k > 0 {
		c.last = now
	}
	return k
}

// Alpha returns how far now is into the period since the last input,
// 0..1: where a frame draws the own player between its last two predicted
// positions.
func (c *InputClock) Alpha(now time.Time) float64 {
	if c.last.IsZero() {
		return 0
	}
	return min(max(float64(now.Sub(c.last))/float64(c.Period()), 0), 1)
}
