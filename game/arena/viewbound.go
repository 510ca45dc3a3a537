package arena

import "math"

// Bounding a claimed view by the server's own estimate.
//
// An input's View is the client's claim of what it drew. The rewind cap
// (Config.RewindTicks) alone would let a client claim any moment inside
// it: a client that claims an older view than it drew is judged against
// poses it has already received, so it knows where its target will be
// judged to be for the first ticks of the bolt's flight. So each claim is
// also bounded by what the server knows of that client: the newest tick
// it had acknowledged when it made the input (Input.Acked, from its
// datagram) less the interpolation delay its link calls for, estimated
// from how evenly its inputs arrive and how late the world's own steps
// ran (the delay an honest client's interpolator picks from how evenly
// its snapshots arrive), the largest of the last 5 to 6 seconds, so that
// a quiet spell does not lower it under what the client still draws.
// That is the floor. A claim older than the floor is judged from the floor
// (seenFrom): the targets move as they did from the floor on, starting
// from where they stood at the claimed view, at most ViewTolerance older
// than the floor. A liar thus knows no more of the judged flight than an
// honest client with the same link, whose buffered ticks it holds as well.

// View bound tuning.
const (
	// MinViewDelay and MaxViewDelay bound the interpolation delay, in
	// ticks, that a client's view may trail the newest tick it had: at
	// least one tick (a client draws between two ticks), at most six (the
	// clients' interpolators go no further: 200 ms at 30 Hz).
	MinViewDelay = 1
	MaxViewDelay = 6
	// FrameAllowance, in ticks, is what a client's frames add to the
	// delay: it takes in a snapshot at its next frame, up to half a tick
	// later at 60 frames a second, which its interpolator counts as
	// lateness that the server's view of its inputs does not show (a
	// quarter of a tick on average). A view up to half a tick older than
	// the floor still has its targets start where it drew them
	// (ViewTolerance).
	FrameAllowance = 0.25
	// ViewHoldSeconds is how long the floor's delay holds the largest
	// delay the arrivals called for: it rises with the first late input
	// and falls only when the arrivals of this second and the five before
	// called for less. A client's interpolator forgets a jitter in about a
	// second and its render clock then comes back at a tenth of real time
	// (6 ticks to 1 in under 2 s): what it still draws stays within the
	// floor.
	ViewHoldSeconds = 5
	// ViewTolerance, in 256ths of a tick, is how much older than the
	// floor the view a shot's targets start from may be: half a tick, for
	// the difference between the jitter the server sees on a client's
	// inputs and the jitter the client sees on its snapshots.
	ViewTolerance = 128
	// arrivalGain and arrivalJitterGain are the weights of a new arrival in
	// the running mean of its offset (two seconds of memory at 30 Hz) and
	// in that of its squared lateness (one second), as the clients' tick
	// clocks have them; arrivalSigmas is the allowance in standard
	// deviations; arrivalResync restarts the estimate after a jump.
	arrivalGain       = 1.0 / 64
	arrivalJitterGain = 1.0 / 32
	arrivalSigmas     = 2
	arrivalResync     = 8
	arrivalQuantum    = 0.25
)

// arrivals estimates how evenly a player's inputs arrive: the running mean
// of seq - tick (an input a tick, so a constant for a steady link) and of
// the squared lateness against it; and the largest delay that called for
// in each of the last ViewHoldSeconds+1 seconds of play.
type arrivals struct {
	n          int
	off, late2 float64
	// peaks[s % len] is the largest delay (256ths of a tick) called for by
	// the arrivals of second s (tick / TickRate), for the seconds from
	// second-ViewHoldSeconds to second.
	peaks  [ViewHoldSeconds + 1]uint16
	second uint32
}

// observe takes the arrival of input seq at the world's tick; steps is
// the world's clock of its own steps, whose lateness the client sees on
// its snapshots too.
func (a *arrivals) observe(seq, tick uint32, steps *arrivals) {
	a.estimate(float64(int32(seq - tick)))
	a.hold(tick, a.called(steps))
}

// estimate updates the running means with an arrival at offset o: how far
// it came ahead of its due, in ticks, on a clock of its own.
func (a *arrivals) estimate(o float64) {
	d := o - a.off // > 0: early, < 0: late
	if a.n == 0 || math.Abs(d) > arrivalResync {
		a.n, a.off = 1, o
		return
	}
	a.n++
	w := max(1/float64(a.n), arrivalGain)
	late := max(-d, 0)
	a.off += w * d
	w = max(1/float64(a.n), arrivalJitterGain)
	a.late2 += w * (late*late - a.late2)
}

// called returns the interpolation delay, in 256ths of a tick, that the
// arrivals call for now: a tick plus twice the lateness's standard
// deviation, bounded by MinViewDelay and MaxViewDelay. The variance is
// that of the inputs' arrivals, 2 × their mean lateness² less 1/4, and
// that of the world's steps, 2 × their mean lateness² (steps; nil: none):
// a client's snapshot comes as late as the step that sent it and its way
// down, and a late step shows on the inputs' arrivals as early ones, not
// late. An input's arrival is known to a tick (the socket is read once a
// tick); a steady client whose inputs arrive about a tick's boundary (an
// input clock keeps them there) shows up to half a tick of lateness that
// is not there, a variance of at most 1/4, which is taken off the
// inputs' (never below 0).
func (a *arrivals) called(steps *arrivals) uint16 {
	v := max(2*a.late2-arrivalQuantum, 0)
	if steps != nil {
		v += 2 * steps.late2
	}
	d := 1 + arrivalSigmas*math.Sqrt(v)
	return uint16(math.Round(min(max(d, MinViewDelay), MaxViewDelay) * 256))
}

// hold keeps d, called for at tick, as its second's peak, forgetting the
// seconds more than ViewHoldSeconds before it.
func (a *arrivals) hold(tick uint32, d uint16) {
	s := tick / TickRate
	if gone := s - a.second; gone > 0 {
		for k := range min(gone, ViewHoldSeconds+1) {
			a.peaks[(a.second+1+k)%(ViewHoldSeconds+1)] = 0
		}
		a.second = s
	}
	if k := s % (ViewHoldSeconds + 1); d > a.peaks[k] {
		a.peaks[k] = d
	}
}

// delay returns the floor's delay, in 256ths of a tick: the largest that
// the arrivals called for in this second of play and the ViewHoldSeconds
// before it (at least MinViewDelay), and FrameAllowance. So it is never
// under MinViewDelay + FrameAllowance (1.25 ticks), which a client can
// count on, never over MaxViewDelay + FrameAllowance (6.25 ticks), rises
// with the first arrival that calls for more, and falls only seconds
// after the arrivals stop calling for it.
func (a *arrivals) delay() uint64 {
	d := uint16(MinViewDelay * 256)
	for _, p := range a.peaks {
		d = max(d, p)
	}
	return uint64(d) + FrameAllowance*256
}

// StepTime tells the world when the step that made its current tick ran:
// at ticks of its clock (the time since the match's first step, in
// ticks). A server that steps late, or skips a tick it overran, sends
// that tick's snapshots late, which its clients' interpolators count as
// jitter; the floor's delay counts it too (arrivals.called). A world that
// is never told (a test's) counts none.
func (w *World) StepTime(ticks float64) {
	w.steps.estimate(float64(w.tick) - ticks)
}

// viewFloor returns the oldest view, in 256ths of a tick, that player p
// may claim for an input made when it held tick acked: 0 (no bound) when
// acked is unknown.
func (p *player) viewFloor(acked uint32) uint64 {
	if acked == 0 {
		return 0
	}
	back := p.arrivals.delay()
	at := uint64(acked) * 256
	if at <= back {
		return 0
	}
	return at - back
}

// ticks256 returns v as a time in 256ths of a tick.
func (v View) ticks256() uint64 { return uint64(v.From)*256 + uint64(v.Gap)*uint64(v.Frac) }

// viewAt returns the view of time t, in 256ths of a tick.
func viewAt(t uint64) View {
	v := View{From: uint32(t / 256), Frac: uint8(t % 256)}
	if v.Frac != 0 {
		v.Gap = 1
	}
	return v
}
