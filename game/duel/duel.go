package duel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/smooth"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Config sets up a duel. Zero fields take the defaults noted.
type Config struct {
	// Seed drives the choice of spots and the strafer's turns.
	Seed uint64
	// Seconds is the play to count: the time the strafer, as the aimer
	// draws it, is in sight (default 20).
	Seconds float64
	// Timeout ends a duel that has not counted Seconds by then (default
	// 20 times Seconds plus a minute).
	Timeout time.Duration
	// Rewind, if set, reads the server's rewind counters (false: not now).
	Rewind func() (arena.RewindStats, bool)
	// Cover puts a wall in the strafer's circle, so that it ducks out of
	// the aimer's sight now and then: what the server's count of hits
	// behind cover (the victim's price of compensation) is measured on.
	// Without it the duel is in the open.
	Cover bool
	// LiarTicks, if positive, makes the aimer a liar: each input claims
	// the view of the tick LiarTicks before the newest it holds, and it
	// aims with what that claim lets it know (liar.go).
	LiarTicks int
	// OneWay is the snapshots' way from the server to the clients, which
	// the input delay leaves out (the link's latency and half its jitter).
	OneWay time.Duration
	// DrawnAim makes the aimer aim at the strafer as it draws it, leading
	// its drawn motion, instead of with every tick it holds (the strafer's
	// poses from the view it claims to the newest tick, and the newest
	// tick's motion beyond), as it does by default: the perfect aimer,
	// which a liar (LiarTicks) must not beat.
	DrawnAim bool
}

type phase uint8

const (
	phaseJoin   phase = iota // waiting for both players
	phaseGather              // walking to the spots
	phaseBout                // the aimer shoots, the strafer strafes
	phaseDown                // the strafer is dead: waiting for its respawn
	phaseDrain               // counted enough: waiting for the last shots' hits
	phaseDone
)

// Durations of the duel's waits.
const (
	gatherTimeout = 30 * time.Second        // then new spots
	drainTime     = 2500 * time.Millisecond // longer than a bolt's life and a round trip
)

// Duel drives an aimer and a strafer, each over its own client, and counts.
// Call Frame at every frame (at least once a tick); Done reports the end,
// Result what it measured. A Duel is not safe for concurrent use.
type Duel struct {
	cfg     Config
	rng     *rand.Rand
	a, s    *side
	aimer   *Aimer
	strafer *Strafer

	phase        phase
	walkA, walkS walker
	anchor       point
	phaseAt      time.Time
	start        time.Time
	doneS        bool // the strafer stands on its spot (phaseGather)
	tickDur      time.Duration
	counted      time.Duration
	elapsed      time.Duration

	shots, hits, kills int
	bout               []uint32            // the inputs that fired the bout's counted shots
	claims             []claim             // counted shots whose applying tick is not yet known
	verdicts           map[uint32]*verdict // the counted shots' verdicts, by input
	viewLags           []float64           // ticks, one per counted shot whose applying tick came
	died               bool                // the aimer took in the tick of the strafer's death

	rewind0   arena.RewindStats
	rewindSet bool
	err       error
	res       Result
}

// New returns a duel of the players of two clients, new to the match:
// the aimer's and the strafer's. It sets the aimer's OnEvent.
func New(cfg Config, aimer, strafer *client.Client) *Duel {
	if cfg.Seconds <= 0 {
		cfg.Seconds = 20
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Duration(20*cfg.Seconds)*time.Second + time.Minute
	}
	d := &Duel{
		cfg:      cfg,
		rng:      rand.New(rand.NewPCG(cfg.Seed, 0xd0e1)),
		a:        newSide(aimer, cfg.Seed*2+1),
		s:        newSide(strafer, cfg.Seed*2+2),
		tickDur:  time.Second / arena.TickRate,
		verdicts: map[uint32]*verdict{},
	}
	d.aimer = newAimer(d.a, cfg.LiarTicks, !cfg.DrawnAim)
	d.strafer = newStrafer(d.s, cfg.Seed)
	d.a.onTick = d.aimerTick
	aimer.OnEvent(d.event)
	return d
}

// Aimer returns the aimer.
func (d *Duel) Aimer() *Aimer { return d.aimer }

// Counting reports whether the duel is in a bout (the aimer shooting).
func (d *Duel) Counting() bool { return d.phase == phaseBout }

// Done reports whether the duel is over.
func (d *Duel) Done() bool { return d.phase == phaseDone }

// Err returns why the duel ended early, if it did.
func (d *Duel) Err() error { return d.err }

// event counts the aimer's hits on the strafer.
func (d *Duel) event(e events.Event) {
	if e.Kind != protocol.KindHit {
		return
	}
	h, err := protocol.ParseHit(e.Body)
	if err != nil || h.Attacker == 0 || arena.PlayerID(h.Attacker) != d.a.id {
		return
	}
	if d.a.shots != nil {
		d.a.shots.Hit(h.Shot)
	}
	if arena.PlayerID(h.Target) != d.s.id {
		return
	}
	if v, ok := d.verdicts[h.Shot]; ok {
		v.server = true
	}
	if h.Damage == arena.SpreadDamage || h.Damage == arena.SpreadDamage*arena.PowerFactor {
		return // a pellet's: spread shots are not counted
	}
	d.hits++
}

// verdict is a counted shot's two verdicts: the aimer's own (its predicted
// shot stopped on the strafer as drawn) once its shot ended, and the
// server's (a hit on the strafer named it).
type verdict struct {
	own, ownKnown bool
	server        bool
}

// takeOwnVerdicts records the aimer's verdict of every counted shot that
// ended since the last call.
func (d *Duel) takeOwnVerdicts() {
	if d.a.shots == nil {
		return
	}
	for seq, v := range d.verdicts {
		if v.ownKnown {
			continue
		}
		if sh, ok := d.a.shots.Find(seq); ok && sh.Ended() {
			v.own, v.ownKnown = sh.OnTarget, true
		}
	}
}

// claim is a counted shot's input and the view it claimed.
type claim struct {
	seq  uint32
	view float64 // ticks
}

// viewLags takes, from tick t, the view lag of the counted shots whose
// inputs the step that made t applied: how far the view each claimed
// trails the tick it was judged on (t-1, the world's convention), unbounded
// and unclamped. A lost snapshot makes the next tick stand in for it, a
// tick later.
func (d *Duel) takeViewLags(t uint32) {
	applied, ok := d.a.cl.AppliedInput(t)
	if !ok {
		return
	}
	keep := d.claims[:0]
	for _, c := range d.claims {
		if int32(c.seq-applied) > 0 {
			keep = append(keep, c)
			continue
		}
		d.viewLags = append(d.viewLags, float64(t-1)-c.view)
	}
	d.claims = keep
}

// aimerTick looks, in every tick the aimer takes in during a bout, for
// the strafer's death; its shots fired after it on the server, or still on
// their way to the strafer, had no outcome: they are not counted.
func (d *Duel) aimerTick(t uint32, st *snapshot.Snapshot) {
	d.takeViewLags(t)
	if d.phase != phaseBout || d.died {
		return
	}
	i, ok := st.Find(d.aimer.target)
	if !ok {
		return
	}
	row := st.Row(i)
	if row[protocol.FieldState]&protocol.StateDead == 0 {
		return
	}
	d.died = true
	d.kills++
	if applied, ok := d.a.cl.AppliedInput(t); ok {
		for _, seq := range d.bout {
			if int32(seq-applied) > 0 {
				d.shots--
			}
			// Fired after the death, or maybe still on its way: the
			// server's verdict is not the aim's.
			if v, ok := d.verdicts[seq]; ok && !v.server && int32(seq-(applied-arena.ProjectileTicks)) > 0 {
				delete(d.verdicts, seq)
			}
		}
	}
	j, ok := st.Find(d.a.self)
	if !ok {
		return
	}
	me, target := rowPoint(st.Row(j)), rowPoint(row)
	ids := st.IDs()
	for k := range ids {
		r := st.Row(k)
		if r[protocol.FieldKind] != protocol.KindProjectile {
			continue
		}
		dy, dx := math.Sincos(protocol.HeadingQuant.Dequantize(r[protocol.FieldHeading]))
		p := rowPoint(r)
		if (p.x-me.x)*dx+(p.y-me.y)*dy < (target.x-me.x)*dx+(target.y-me.y)*dy {
			d.shots-- // not there yet
		}
	}
}

func rowPoint(r []uint32) point {
	return point{protocol.PosQuant.Dequantize(r[protocol.FieldX]), protocol.PosQuant.Dequantize(r[protocol.FieldY])}
}

// Frame takes in what arrived by now and plays each player's next input
// when its input clock says it is due (about one a tick each).
func (d *Duel) Frame(now time.Time) {
	if d.phase == phaseDone {
		return
	}
	if d.start.IsZero() {
		d.start, d.phaseAt = now, now
	}
	d.elapsed = now.Sub(d.start)
	d.a.poll(now)
	d.s.poll(now)
	for _, c := range []*client.Client{d.a.cl, d.s.cl} {
		select {
		case <-c.Done():
			d.finish(errors.New("duel: a connection ended"))
			return
		default:
		}
	}
	if d.a.shots != nil {
		d.a.shots.CatchUp(d.aimer.hitsDrawn) // flights that waited for their ticks
	}
	if d.elapsed > d.cfg.Timeout {
		d.finish(fmt.Errorf("duel: %.1f s counted of %.1f s in %v", d.counted.Seconds(), d.cfg.Seconds, d.cfg.Timeout))
		return
	}
	for _, sd := range []*side{d.a, d.s} {
		sd.clock.Report(sd.cl.TakeSpare())
		for range sd.clock.Due(now) {
			if sd == d.a {
				d.playAimer(now)
			} else {
				d.playStrafer()
			}
			if d.phase == phaseDone {
				return
			}
		}
		sd.drawSelf(now)
	}
}

// playAimer makes and sends the aimer's next input, and moves the duel
// from phase to phase.
func (d *Duel) playAimer(now time.Time) {
	d.aimer.draw(func(fn func(snapshot.EntityID, smooth.Entity)) { d.a.interp.Sample(now, fn) })
	var ax, ay int8
	fire := false
	switch d.phase {
	case phaseJoin:
		if d.a.ready() && d.s.ready() {
			d.aimer.target = d.s.self
			d.gather(now)
		}
	case phaseGather:
		if now.Sub(d.phaseAt) > gatherTimeout {
			d.gather(now)
		}
		var doneA bool
		ax, ay, doneA = d.walkA.stick(d.a.position())
		if doneA && d.doneS {
			d.phase, d.phaseAt, d.died, d.bout = phaseBout, now, false, d.bout[:0]
			d.strafer.startAt(d.anchor)
			if !d.rewindSet && d.cfg.Rewind != nil {
				d.rewind0, d.rewindSet = d.cfg.Rewind()
			}
		}
	case phaseBout:
		switch {
		case d.died || !d.s.ready() || d.a.roundCuts():
			d.phase, d.phaseAt = phaseDown, now
		case d.counted.Seconds() >= d.cfg.Seconds:
			d.phase, d.phaseAt = phaseDrain, now
		default:
			if d.aimer.inSight() {
				fire = true
				d.counted += d.tickDur
			}
		}
	case phaseDown:
		if d.s.ready() && !d.a.roundCuts() {
			d.gather(now)
		}
	case phaseDrain:
		if now.Sub(d.phaseAt) >= drainTime {
			d.finish(nil)
			return
		}
	}
	d.takeOwnVerdicts()
	in, _ := d.aimer.input(ax, ay, fire)
	weapon := d.a.weapon()
	seq, err := d.a.send(in)
	// A spread gun picked up on the way fires pellets that do not reach
	// 300 px: they are fired (to get the gun back) but not counted.
	if d.a.pred != nil && d.aimer.sent(seq, in) && weapon == arena.WeaponGun {
		d.shots++
		d.bout = append(d.bout, seq)
		d.verdicts[seq] = &verdict{}
		if in.View.From != 0 {
			v := float64(in.View.From) + float64(in.View.Gap)*float64(in.View.Frac)/256
			d.claims = append(d.claims, claim{seq: seq, view: v})
		}
	}
	if err != nil {
		d.finish(fmt.Errorf("duel: send: %w", err))
	}
}

// playStrafer makes and sends the strafer's next input: walking to its
// spot, strafing in a bout, else standing.
func (d *Duel) playStrafer() {
	var sx, sy int8
	switch d.phase {
	case phaseGather:
		sx, sy, d.doneS = d.walkS.stick(d.s.position())
	case phaseBout:
		if !d.died {
			sx, sy = d.strafer.next()
		}
	}
	if _, err := d.s.send(arena.Input{MoveX: sx, MoveY: sy}); err != nil {
		d.finish(fmt.Errorf("duel: send: %w", err))
	}
}

// gather picks a new pair of spots near both players and walks them there.
func (d *Duel) gather(now time.Time) {
	pa, ps := d.a.position(), d.s.position()
	spot, anchor, ok := pickSpots(d.a.m, d.rng, pa, ps, d.cfg.Cover)
	if !ok {
		d.finish(errors.New("duel: no pair of spots on the map"))
		return
	}
	d.anchor = anchor
	d.walkA.to(d.a.m, pa, spot)
	d.walkS.to(d.s.m, ps, anchor)
	d.doneS = false
	d.phase, d.phaseAt = phaseGather, now
}

// finish ends the duel and sums it up.
func (d *Duel) finish(err error) {
	d.phase, d.err = phaseDone, err
	r := Result{Shots: d.shots, Hits: d.hits, Kills: d.kills, CountedSeconds: d.counted.Seconds(), Seconds: d.elapsed.Seconds()}
	if r.Shots > 0 {
		r.HitRate = float64(r.Hits) / float64(r.Shots)
	}
	r.ViewLagMsMean, r.ViewLagMsP95 = lagFigures(d.viewLags)
	d.movement(&r)
	d.takeOwnVerdicts()
	for _, v := range d.verdicts {
		switch {
		case !v.ownKnown:
			r.UnjudgedShots++
		case v.own == v.server:
			r.Agreed++
		case v.own:
			r.OwnHitServerMiss++
		default:
			r.OwnMissServerHit++
		}
	}
	if n := r.Agreed + r.OwnHitServerMiss + r.OwnMissServerHit; n > 0 {
		r.Agreement = float64(r.Agreed) / float64(n)
	}
	if d.a.shots != nil {
		st := d.a.shots.Stats()
		r.Predicted, r.Confirmed, r.Rejected = st.Fired, st.Confirmed, st.Rejected
		r.HandoverMeanPx, r.HandoverMaxPx = st.HandoverMean(), st.HandoverMax
	}
	for _, c := range []*client.Client{d.a.cl, d.s.cl} {
		st := c.Stats()
		r.VerifiedTicks += st.Verified
		r.MismatchedTicks += st.Mismatched
	}
	if d.rewindSet {
		if end, ok := d.cfg.Rewind(); ok {
			r.RewindKnown = true
			r.RewoundShots = end.Shots - d.rewind0.Shots
			r.RewindClamped = end.Clamped - d.rewind0.Clamped
			r.RewindBounded = end.Bounded - d.rewind0.Bounded
			r.RewoundHits = end.Hits - d.rewind0.Hits
			r.BehindCoverHits = end.BehindCover - d.rewind0.BehindCover
			if r.RewoundShots > 0 {
				ticks := float64(end.Ticks-d.rewind0.Ticks) / 256 / float64(r.RewoundShots)
				r.MeanRewindMs = ticks * 1000 / arena.TickRate
			}
		}
	}
	if err != nil {
		r.Error = err.Error()
	}
	d.res = r
}

// movement fills in r's movement figures.
func (d *Duel) movement(r *Result) {
	minutes := d.elapsed.Minutes()
	var n uint64
	var sum float64
	var delays []float64
	frames, off := 0, 0
	for _, sd := range []*side{d.a, d.s} {
		if sd.pred != nil {
			st := sd.pred.Stats()
			n += st.Corrections
			sum += st.CorrectionSum
		}
		frames, off = frames+sd.frames, off+sd.framesOff
		oneWay := float64(d.cfg.OneWay) / float64(time.Millisecond)
		for _, ms := range sd.delays {
			delays = append(delays, ms-oneWay)
		}
	}
	for _, sd := range []*side{d.a, d.s} {
		r.LateInputs += sd.cl.Stats().Late
	}
	if minutes > 0 {
		r.CorrectionsPerMin = float64(n) / minutes
		r.RemoteJumpsPerMin = float64(d.aimer.jumps) / minutes
	}
	if n > 0 {
		r.CorrectionMeanPx = sum / float64(n)
	}
	if frames > 0 {
		r.FramesOffShare = float64(off) / float64(frames)
	}
	if d.aimer.frames > 0 {
		r.ExtrapolatedShare = float64(d.aimer.extrapolated) / float64(d.aimer.frames)
	}
	if len(delays) > 0 {
		slices.Sort(delays)
		r.InputDelayMsP50, r.InputDelayMsP95 = delays[len(delays)/2], delays[len(delays)*95/100]
	}
}

// lagFigures returns the mean and the 95th percentile of lags (ticks), in
// ms; 0, 0 with none. It sorts lags.
func lagFigures(lags []float64) (mean, p95 float64) {
	if len(lags) == 0 {
		return 0, 0
	}
	slices.Sort(lags)
	var sum float64
	for _, l := range lags {
		sum += l
	}
	toMs := 1000.0 / arena.TickRate
	return sum / float64(len(lags)) * toMs, lags[(len(lags)*95)/100] * toMs
}

// Result returns what the duel measured (the zero Result before it ends).
func (d *Duel) Result() Result { return d.res }

// Run plays the duel in real time, a frame every frame (at least a tick's
// worth a tick: 1/60 s is what a game does), until it is over or ctx ends.
// before, if set, runs before every frame (a conditioner's Pump).
func (d *Duel) Run(ctx context.Context, frame time.Duration, before func()) error {
	t := time.NewTicker(frame)
	defer t.Stop()
	for !d.Done() {
		select {
		case <-ctx.Done():
			d.finish(ctx.Err())
			return ctx.Err()
		case <-t.C:
		}
		if before != nil {
			before()
		}
		d.Frame(time.Now())
	}
	return d.err
}
