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
// from how evenly its inputs arrive (the delay an honest client's
// interpolator picks from how evenly its snapshots arrive). That is the
// floor. A claim older than the floor is judged from the floor
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
	// quarter of a tick on average).
	FrameAllowance = 0.25
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
// the squared lateness against it.
type arrivals struct {
	n          int
	off, late2 float64
}

// observe takes the arrival of input seq at the world's tick.
func (a *arrivals) observe(seq, tick uint32) {
	o := float64(int32(seq - tick))
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

// delay returns the interpolation delay, in 256ths of a tick, that the
// arrivals call for: a tick plus twice the lateness's standard deviation,
// bounded by MinViewDelay and MaxViewDelay, and FrameAllowance. An input's arrival is known to
// a tick (the socket is read once a tick); a steady client whose inputs
// arrive about a tick's boundary (an input clock keeps them there) shows up
// to half a tick of lateness that is not there, a variance of at most 1/4,
// which is taken off.
func (a *arrivals) delay() uint64 {
	d := 1 + arrivalSigmas*math.Sqrt(max(2*a.late2-arrivalQuantum, 0))
	return uint64(math.Round((min(max(d, MinViewDelay), MaxViewDelay) + FrameAllowance) * 256))
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
