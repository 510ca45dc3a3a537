package smooth

import (
	"math"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Limits of an [Interpolator].
const (
	// InterpolationHistory is how many ticks an interpolator holds: far
	// more than its largest delay, so a burst of reordered or late ticks
	// still finds its neighbours.
	InterpolationHistory = 32
	// MinDelayTicks and MaxDelayTicks bound the interpolation delay, in
	// ticks: at least one tick (the next tick must have arrived to draw
	// between two), at most six (200 ms at 30 Hz; beyond that the game
	// would feel sluggish and extrapolating is the lesser evil).
	MinDelayTicks = 1
	MaxDelayTicks = 6
	// MaxExtrapolationTicks is how far past the newest tick an
	// interpolator extrapolates before it holds the entities still.
	MaxExtrapolationTicks = 2
)

// Tuning of the tick clock and the render clock.
const (
	// offsetGain is the weight of a new arrival in the clock offset's
	// running mean (after the first 1/offsetGain arrivals, which are
	// averaged evenly): about two seconds of memory at 30 Hz.
	offsetGain = 1.0 / 64
	// jitterGain is the weight of a new arrival in the running mean of the
	// squared lateness: about one second of memory.
	jitterGain = 1.0 / 32
	// jitterSigmas is the allowance in standard deviations of the arrival
	// deviation: 2σ covers about 95% of arrivals.
	jitterSigmas = 2
	// maxSlew is how much faster or slower than real time the render clock
	// may run while it closes in on its target (±10%).
	maxSlew = 0.1
	// resyncTicks is how far, in ticks, an arrival may stray from the tick
	// clock before the clock restarts from it (server stall, reconnect),
	// and how far the render clock may be from its target before it jumps.
	// Larger than MaxDelayTicks-MinDelayTicks, so delay changes never jump.
	resyncTicks = 8
)

// rowLen is the number of arena fields an interpolator keeps per entity.
const rowLen = protocol.FieldHealth + 1

// Entity is an entity's state to draw: position in px, heading in radians
// in [0, 2π), and the arena's kind, state bits and health.
type Entity struct {
	X, Y, Heading       float64
	Kind, State, Health uint32
}

// tickSlot is one held tick: the quantized arena fields of its entities, in
// slot order.
type tickSlot struct {
	tick uint32
	ok   bool
	ids  []snapshot.EntityID
	rows [][rowLen]uint32
}

// Interpolator draws remote entities between the two held snapshots around a
// render time a little in the past.
//
// It keeps a tick clock: the server tick expected to arrive at a given local
// time, the running mean of tick - arrival time × tick rate over the arrivals.
// How late each arrival is against that clock is its jitter. Only lateness
// counts (an early tick harms nothing), so the estimate of the deviation's
// spread, σ = sqrt(2·mean(lateness²)) with early arrivals counting as 0, is
// the standard deviation for jitter symmetric about its mean, and falls as
// soon as the jitter stops, without waiting for the mean to catch up. The interpolation delay is one tick plus the
// allowance 2σ (about the 95th percentile of the lateness), clamped to
// [MinDelayTicks, MaxDelayTicks]. The render clock follows clock -
// delay by running up to 10% fast or slow, so neither a change of delay nor a
// noisy arrival ever makes time jump; it jumps only after a stall or restart
// of more than 8 ticks. When snapshots stop coming (a burst of losses), the
// render clock extrapolates a tick at full speed, then slows down in
// proportion to the headroom left before [MaxExtrapolationTicks], so the
// entities ease to a hold and go on without a jump when the next tick
// arrives.
//
// Storage is a ring of [InterpolationHistory] ticks whose buffers grow to the
// largest snapshot seen and are then reused: Push and Sample allocate nothing
// in steady state. An Interpolator is not safe for concurrent use.
type Interpolator struct {
	rate  float64 // ticks per second
	slots [InterpolationHistory]tickSlot

	newest uint32 // newest tick held
	has    bool

	// Tick clock: the server tick at local time t is
	// off + t.Sub(base).Seconds()*rate.
	base    time.Time
	off     float64
	n       int     // arrivals since the clock (re)started
	late2   float64 // running mean of the squared lateness, ticks²
	started bool

	// Render clock.
	rt   float64   // render time, in ticks
	rtAt time.Time // local time of rt
	rtOK bool

	view         arena.View // what the last Sample drew
	extrapolated bool       // the last Sample drew past the newest tick
}

// NewInterpolator returns an interpolator for a server ticking tickRate
// times a second (arena.TickRate in the game). A rate that is not positive
// and finite is taken as arena.TickRate.
func NewInterpolator(tickRate float64) *Interpolator {
	if !(tickRate > 0) || math.IsInf(tickRate, 0) {
		tickRate = arena.TickRate
	}
	return &Interpolator{rate: tickRate}
}

// Push records the decoded state of tick, which arrived at local time
// arrived. It copies what it needs from s (positions, heading, kind, state,
// health per entity id), so s may be reused at once. Ticks already held and
// ticks older than the whole held window are ignored; a tick newer than the
// window evicts the oldest. A nil snapshot or one without the arena's fields
// is ignored.
func (ip *Interpolator) Push(tick uint32, arrived time.Time, s *snapshot.Snapshot) {
	if s == nil || s.Schema() == nil || s.Schema().NumFields() < rowLen {
		return
	}
	slot := &ip.slots[tick%InterpolationHistory]
	if ip.has {
		if int32(tick-ip.newest) <= -InterpolationHistory {
			return // older than anything held
		}
		if slot.ok && slot.tick == tick {
			return // duplicate
		}
	}
	n := min(s.Len(), protocol.MaxEntities)
	slot.tick, slot.ok = tick, true
	slot.ids = append(slot.ids[:0], s.IDs()[:n]...)
	if cap(slot.rows) < n {
		slot.rows = make([][rowLen]uint32, n, max(n, 2*cap(slot.rows)))
	}
	slot.rows = slot.rows[:n]
	for i := range n {
		copy(slot.rows[i][:], s.Row(i)[:rowLen])
	}
	if !ip.has || int32(tick-ip.newest) > 0 {
		ip.newest, ip.has = tick, true
	}
	ip.observe(tick, arrived)
}

// observe feeds one arrival to the tick clock and the jitter estimate.
func (ip *Interpolator) observe(tick uint32, at time.Time) {
	if !ip.started {
		ip.restartClock(tick, at)
		return
	}
	d := float64(tick) - at.Sub(ip.base).Seconds()*ip.rate - ip.off // > 0: early, < 0: late
	if math.Abs(d) > resyncTicks {
		ip.restartClock(tick, at)
		return
	}
	ip.n++
	w := max(1/float64(ip.n), offsetGain)
	late := max(-d, 0)
	ip.off += w * d
	w = max(1/float64(ip.n), jitterGain)
	ip.late2 += w * (late*late - ip.late2)
}

// restartClock starts the tick clock at one arrival, keeping the jitter
// estimate (the link has not changed because the server stalled).
func (ip *Interpolator) restartClock(tick uint32, at time.Time) {
	ip.base, ip.off, ip.n, ip.started = at, float64(tick), 1, true
}

// Reset forgets every held tick and both clocks. Call it for a new
// connection: its ticks start again, and ticks far older than the held ones
// would be ignored.
func (ip *Interpolator) Reset() {
	for i := range ip.slots {
		ip.slots[i].ok = false
	}
	ip.has, ip.started, ip.rtOK = false, false, false
	ip.n, ip.late2, ip.off, ip.rt = 0, 0, 0, 0
	ip.view = arena.View{}
}

// jitterTicks returns the jitter allowance in ticks.
func (ip *Interpolator) jitterTicks() float64 { return jitterSigmas * math.Sqrt(2*ip.late2) }

// delayTicks returns the target interpolation delay in ticks.
func (ip *Interpolator) delayTicks() float64 {
	return min(max(1+ip.jitterTicks(), MinDelayTicks), MaxDelayTicks)
}

// Delay returns the interpolation delay the render clock aims at: one tick
// plus the jitter allowance, clamped to [MinDelayTicks, MaxDelayTicks].
func (ip *Interpolator) Delay() time.Duration { return ip.ticksToDuration(ip.delayTicks()) }

// Jitter returns the jitter allowance: twice the estimated standard
// deviation of snapshot arrival times from the tick clock (about the 95th
// percentile of the lateness).
func (ip *Interpolator) Jitter() time.Duration { return ip.ticksToDuration(ip.jitterTicks()) }

// RenderTick returns the render time of the last Sample, in ticks (with a
// fraction), and whether there was one. The game's overlay can show it.
func (ip *Interpolator) RenderTick() (float64, bool) { return ip.rt, ip.rtOK }

func (ip *Interpolator) ticksToDuration(t float64) time.Duration {
	return time.Duration(t / ip.rate * float64(time.Second))
}

// renderTime advances the render clock to local time now and returns it.
func (ip *Interpolator) renderTime(now time.Time) float64 {
	target := ip.off + now.Sub(ip.base).Seconds()*ip.rate - ip.delayTicks()
	if !ip.rtOK || math.Abs(target-ip.rt) > resyncTicks {
		ip.rt, ip.rtAt, ip.rtOK = target, now, true
		return ip.rt
	}
	el := max(now.Sub(ip.rtAt).Seconds()*ip.rate, 0)
	lim := maxSlew * el
	adv := el + min(max(target-(ip.rt+el), -lim), lim)
	// Starved: past one tick of extrapolation, time slows down in
	// proportion to the headroom left before the extrapolation limit, so
	// the entities ease to a stop there instead of halting, and when the
	// next tick arrives they go on from where they are, without a jump
	// (the slew then catches up with the target).
	if head := float64(ip.newest) + MaxExtrapolationTicks - ip.rt; head < 1 {
		adv *= max(head, 0)
	}
	ip.rt += max(adv, 0)
	ip.rtAt = now
	return ip.rt
}

// Sample calls fn for every entity to draw at local time now, in slot order,
// at most once per slot index. The render time is now minus the delay on the
// tick clock. Between two held ticks, positions and headings (the short way
// round) are interpolated linearly; kind, state and health come from the
// nearer tick. An entity held in only one of the two ticks is drawn as that
// tick has it; an entity whose generation differs between the two is not
// interpolated: the nearer tick's entity is drawn. Past the newest tick,
// positions are extrapolated from the two newest held ticks for at most
// [MaxExtrapolationTicks], then held; before the oldest tick, the oldest is
// drawn. Sample does nothing before the first Push.
func (ip *Interpolator) Sample(now time.Time, fn func(id snapshot.EntityID, e Entity)) {
	if !ip.has {
		return
	}
	rt := ip.renderTime(now)
	ip.view = ip.sampleAt(rt, fn)
	ip.extrapolated = rt > float64(ip.newest)
}

// Extrapolated reports whether the last Sample drew past the newest tick
// held: the next tick had not come in time, and the others were moved on
// as they last moved (or held, past MaxExtrapolationTicks).
func (ip *Interpolator) Extrapolated() bool { return ip.extrapolated }

// SampleAt calls fn for every entity as Sample draws it at render time t
// (in ticks, with a fraction: the time a View names), without moving the
// clocks: where the entities are drawn at that time, as far as the held
// ticks say (past the newest, extrapolated as Sample does). A predicted
// shot is drawn as far ahead of the others' view as it has flown, so it
// meets them there. It does nothing before the first Push.
func (ip *Interpolator) SampleAt(t float64, fn func(id snapshot.EntityID, e Entity)) {
	if !ip.has {
		return
	}
	ip.sampleAt(t, fn)
}

// Holds reports whether render time t is at or before the newest tick
// held: whether SampleAt(t) draws from ticks that came, not extrapolating.
func (ip *Interpolator) Holds(t float64) bool { return ip.has && t <= float64(ip.newest) }

// sampleAt calls fn for every entity drawn at render time rt and returns
// the View of that drawing.
func (ip *Interpolator) sampleAt(rt float64, fn func(id snapshot.EntityID, e Entity)) arena.View {
	// Find the held ticks around rt: a at or before it, b after it.
	var a, b, oldest, prev *tickSlot
	var da, db, dOld, dPrev int32
	for i := range ip.slots {
		s := &ip.slots[i]
		back := int32(ip.newest - s.tick) // ticks before the newest
		if !s.ok || back < 0 || back >= InterpolationHistory {
			continue
		}
		t := float64(ip.newest) - float64(back)
		if t <= rt {
			if a == nil || back < da {
				a, da = s, back
			}
		} else if b == nil || back > db {
			b, db = s, back
		}
		if oldest == nil || back > dOld {
			oldest, dOld = s, back
		}
		if back > 0 && (prev == nil || back < dPrev) {
			prev, dPrev = s, back
		}
	}
	switch {
	case a != nil && b != nil:
		ta, tb := float64(ip.newest)-float64(da), float64(ip.newest)-float64(db)
		alpha := (rt - ta) / (tb - ta)
		interpolate(a, b, alpha, fn)
		return viewOf(a.tick, b.tick, alpha)
	case b != nil: // before everything held
		interpolate(oldest, oldest, 0, fn)
		return arena.View{From: oldest.tick}
	case prev == nil: // a single tick held
		interpolate(a, a, 0, fn)
		return arena.View{From: a.tick}
	default: // past the newest: a is the newest
		ext := min(rt-float64(ip.newest), MaxExtrapolationTicks) / float64(dPrev)
		extrapolate(prev, a, ext, fn)
		return arena.View{From: a.tick}
	}
}

// View returns what the last Sample drew, as an input states it (its
// arena.Input.View): the two ticks it drew between and how far, in 256ths,
// or the one tick it drew (extrapolating past the newest tick counts as
// drawing the newest). The zero View before the first Sample.
func (ip *Interpolator) View() arena.View { return ip.view }

// viewOf returns the View of a frame drawn alpha of the way from tick a to
// tick b: the fraction rounded to 256ths, a gap too long for a byte or a
// fraction that rounds to a whole tick drawn as the nearer tick.
func viewOf(a, b uint32, alpha float64) arena.View {
	frac := math.Round(alpha * 256)
	switch {
	case b-a > math.MaxUint8 || frac >= 256 && alpha >= 0.5:
		if alpha >= 0.5 {
			return arena.View{From: b}
		}
		return arena.View{From: a}
	case frac <= 0:
		return arena.View{From: a}
	}
	return arena.View{From: a, Gap: uint8(b - a), Frac: uint8(frac)}
}

// interpolate draws the entities of a and b at alpha between them.
func interpolate(a, b *tickSlot, alpha float64, fn func(snapshot.EntityID, Entity)) {
	ia, ib := 0, 0
	for ia < len(a.ids) || ib < len(b.ids) {
		switch {
		case ib >= len(b.ids) || (ia < len(a.ids) && a.ids[ia].Index < b.ids[ib].Index):
			fn(a.ids[ia], entityOf(&a.rows[ia]))
			ia++
		case ia >= len(a.ids) || b.ids[ib].Index < a.ids[ia].Index:
			fn(b.ids[ib], entityOf(&b.rows[ib]))
			ib++
		default:
			switch {
			case a.ids[ia] == b.ids[ib]:
				fn(b.ids[ib], lerpEntity(&a.rows[ia], &b.rows[ib], alpha))
			case alpha < 0.5: // a new entity in the same slot: no blending
				fn(a.ids[ia], entityOf(&a.rows[ia]))
			default:
				fn(b.ids[ib], entityOf(&b.rows[ib]))
			}
			ia++
			ib++
		}
	}
}

// extrapolate draws the entities of the newest tick n, moved on by k times
// their motion since the earlier tick p. Entities not in p with the same
// generation are drawn as n has them.
func extrapolate(p, n *tickSlot, k float64, fn func(snapshot.EntityID, Entity)) {
	ip := 0
	for i, id := range n.ids {
		e := entityOf(&n.rows[i])
		for ip < len(p.ids) && p.ids[ip].Index < id.Index {
			ip++
		}
		if ip < len(p.ids) && p.ids[ip] == id {
			o := entityOf(&p.rows[ip])
			e.X += (e.X - o.X) * k
			e.Y += (e.Y - o.Y) * k
		}
		fn(id, e)
	}
}

// entityOf dequantizes a held row.
func entityOf(r *[rowLen]uint32) Entity {
	return Entity{
		X:       protocol.PosQuant.Dequantize(r[protocol.FieldX]),
		Y:       protocol.PosQuant.Dequantize(r[protocol.FieldY]),
		Heading: protocol.HeadingQuant.Dequantize(r[protocol.FieldHeading]),
		Kind:    r[protocol.FieldKind],
		State:   r[protocol.FieldState],
		Health:  r[protocol.FieldHealth],
	}
}

// lerpEntity blends two rows of the same entity: position linearly, heading
// the short way round, the rest from the nearer one.
func lerpEntity(a, b *[rowLen]uint32, alpha float64) Entity {
	ea, eb := entityOf(a), entityOf(b)
	e := eb
	if alpha < 0.5 {
		e = ea
	}
	e.X = ea.X + (eb.X-ea.X)*alpha
	e.Y = ea.Y + (eb.Y-ea.Y)*alpha
	e.Heading = lerpAngle(ea.Heading, eb.Heading, alpha)
	return e
}

// lerpAngle blends two angles the short way round; the result is in [0, 2π).
func lerpAngle(a, b, alpha float64) float64 {
	h := a + math.Remainder(b-a, 2*math.Pi)*alpha
	h = math.Mod(h, 2*math.Pi)
	if h < 0 {
		h += 2 * math.Pi
	}
	if h >= 2*math.Pi {
		h = 0
	}
	return h
}
