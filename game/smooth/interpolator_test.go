package smooth

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// stepBound is the largest frame-to-frame step of a sampled entity, as a
// multiple of the distance it moves in one frame, in steady play. The render
// clock's ±10% slew and the 1/8 px quantization account for all but a little.
const stepBound = 1.5

// truthBound is how far, in px, a sampled position may be from the true
// path at the render time: the 1/8 px quantization, amplified by at most two
// ticks of extrapolation.
const truthBound = 0.5

// tickDur is one server tick.
const tickDur = time.Second / arena.TickRate

// epoch is an arbitrary local start time.
var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// mover is an entity moving at constant velocity.
type mover struct {
	x0, y0, vx, vy float64 // px, px per tick
	heading        float64
}

// world is a recorded stream: entities at constant velocity, one snapshot
// per tick, made on demand into a reused snapshot.
type world struct {
	movers []mover
	snap   *snapshot.Snapshot
}

// newWorld makes n movers that stay inside the world for the given time:
// speeds from a creature's walk (60 px/s) up to a player's run (220 px/s),
// as far as the time allows.
func newWorld(n int, seed uint64, d time.Duration) *world {
	rng := rand.New(rand.NewPCG(seed, 1))
	w := &world{snap: snapshot.New(protocol.Schema())}
	top := min(arena.PlayerSpeed, 1800/d.Seconds())
	for range n {
		speed := 60 + rng.Float64()*(top-60)
		a := rng.Float64() * 2 * math.Pi
		w.movers = append(w.movers, mover{
			x0: 1848 + rng.Float64()*400, y0: 1848 + rng.Float64()*400,
			vx: speed * math.Cos(a) / arena.TickRate, vy: speed * math.Sin(a) / arena.TickRate,
			heading: a,
		})
	}
	return w
}

func (w *world) at(tick uint32) *snapshot.Snapshot {
	s := w.snap
	s.Reset()
	for i, m := range w.movers {
		row := s.AppendUnchecked(snapshot.EntityID{Index: uint16(i), Generation: 1})
		row[protocol.FieldX] = protocol.PosQuant.Quantize(m.x0 + m.vx*float64(tick))
		row[protocol.FieldY] = protocol.PosQuant.Quantize(m.y0 + m.vy*float64(tick))
		row[protocol.FieldHeading] = protocol.HeadingQuant.Quantize(m.heading)
		row[protocol.FieldKind] = protocol.KindCreature
		row[protocol.FieldState] = protocol.StateWalking
		row[protocol.FieldHealth] = arena.CreatureHealth
	}
	return s
}

// frameSpeed returns mover i's distance per 60 FPS frame.
func (w *world) frameSpeed(i int) float64 {
	m := w.movers[i]
	return math.Hypot(m.vx, m.vy) * arena.TickRate / 60
}

// arrival is one delivered snapshot.
type arrival struct {
	tick uint32
	at   time.Time
}

// deliver schedules ticks [from, to) with the loss share, a base latency and
// uniform jitter in [-jitter, +jitter], sorted by arrival.
func deliver(rng *rand.Rand, from, to uint32, loss float64, latency, jitter time.Duration) []arrival {
	var out []arrival
	for tick := from; tick < to; tick++ {
		if rng.Float64() < loss {
			continue
		}
		j := time.Duration((2*rng.Float64() - 1) * float64(jitter))
		out = append(out, arrival{tick, epoch.Add(time.Duration(tick)*tickDur + latency + j)})
	}
	slices.SortStableFunc(out, func(a, b arrival) int { return a.at.Compare(b.at) })
	return out
}

// player plays arrivals into an interpolator, sampling at 60 FPS, and
// measures every entity's frame-to-frame step against its speed.
type player struct {
	w         *world
	ip        *Interpolator
	frame     int
	prev      []Entity
	seen      []bool
	got       []bool
	maxRatio  float64
	minRatio  float64
	maxOff    float64 // largest distance from the true path at the render time
	measuring bool
	sampleFn  func(id snapshot.EntityID, e Entity)
}

func newPlayer(w *world) *player {
	p := &player{w: w, ip: NewInterpolator(arena.TickRate), prev: make([]Entity, len(w.movers)),
		seen: make([]bool, len(w.movers)), got: make([]bool, len(w.movers)), minRatio: math.Inf(1)}
	p.sampleFn = func(id snapshot.EntityID, e Entity) {
		i := int(id.Index)
		if p.seen[i] && p.measuring {
			r := math.Hypot(e.X-p.prev[i].X, e.Y-p.prev[i].Y) / p.w.frameSpeed(i)
			p.maxRatio = max(p.maxRatio, r)
			p.minRatio = min(p.minRatio, r)
		}
		p.prev[i], p.seen[i], p.got[i] = e, true, true
		if p.measuring {
			rt, _ := p.ip.RenderTick()
			m := p.w.movers[i]
			p.maxOff = max(p.maxOff, math.Hypot(e.X-(m.x0+m.vx*rt), e.Y-(m.y0+m.vy*rt)))
		}
	}
	return p
}

// play pushes the arrivals in order while sampling at 60 FPS until the
// local time until.
func (p *player) play(arr []arrival, until time.Time) {
	k := 0
	for {
		now := epoch.Add(time.Duration(p.frame)*time.Second/60 + 3*time.Millisecond)
		if now.After(until) {
			return
		}
		for k < len(arr) && !arr[k].at.After(now) {
			p.ip.Push(arr[k].tick, arr[k].at, p.w.at(arr[k].tick))
			k++
		}
		clear(p.got)
		p.ip.Sample(now, p.sampleFn)
		for i, g := range p.got {
			if !g && p.measuring {
				panic("entity missing from a sample")
			}
			if !g {
				p.seen[i] = false
			}
		}
		p.frame++
	}
}

func TestInterpolatorSmoothUnderLossAndJitter(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		w := newWorld(64, seed, 10*time.Second)
		rng := rand.New(rand.NewPCG(seed, 2))
		arr := deliver(rng, 0, 300, 0.10, 50*time.Millisecond, 20*time.Millisecond)
		p := newPlayer(w)
		p.play(arr, epoch.Add(time.Second))
		p.measuring = true
		p.play(arr, epoch.Add(10*time.Second))
		t.Logf("seed %d: frame step / frame distance in [%.3f, %.3f]; off the true path by <= %.3f px; delay %v, jitter %v",
			seed, p.minRatio, p.maxRatio, p.maxOff, p.ip.Delay(), p.ip.Jitter())
		if p.maxRatio > stepBound {
			t.Errorf("seed %d: frame step %.3f× the frame distance > %v", seed, p.maxRatio, stepBound)
		}
		if p.maxOff > truthBound {
			t.Errorf("seed %d: drawn %.3f px off the true path at the render time, want <= %v", seed, p.maxOff, truthBound)
		}
		if d := p.ip.Delay(); d < tickDur || d > 3*tickDur {
			t.Errorf("seed %d: delay %v for ±20 ms jitter, want 1 to 3 ticks", seed, d)
		}
	}
}

func TestInterpolatorDelayFollowsJitter(t *testing.T) {
	w := newWorld(16, 4, 15*time.Second)
	rng := rand.New(rand.NewPCG(4, 2))
	var arr []arrival
	arr = append(arr, deliver(rng, 0, 150, 0, 40*time.Millisecond, 0)...)
	arr = append(arr, deliver(rng, 150, 300, 0, 40*time.Millisecond, 50*time.Millisecond)...)
	arr = append(arr, deliver(rng, 300, 450, 0, 40*time.Millisecond, 0)...)
	slices.SortStableFunc(arr, func(a, b arrival) int { return a.at.Compare(b.at) })
	p := newPlayer(w)
	p.play(arr, epoch.Add(time.Second))
	p.measuring = true
	p.play(arr, epoch.Add(5*time.Second))
	calm := p.ip.Delay()
	p.play(arr, epoch.Add(10*time.Second))
	jittery, jit := p.ip.Delay(), p.ip.Jitter()
	p.play(arr, epoch.Add(15*time.Second))
	after := p.ip.Delay()
	t.Logf("delay: calm %v, with ±50 ms jitter %v (jitter %v), calm again %v; frame step ratio [%.3f, %.3f]",
		calm, jittery, jit, after, p.minRatio, p.maxRatio)
	if calm > tickDur+time.Millisecond {
		t.Errorf("calm delay %v, want one tick", calm)
	}
	if jittery < calm+tickDur {
		t.Errorf("delay %v under ±50 ms jitter did not grow by a tick from %v", jittery, calm)
	}
	if after > tickDur+10*time.Millisecond {
		t.Errorf("delay %v did not shrink back after the jitter stopped", after)
	}
	if p.maxRatio > stepBound || p.maxOff > truthBound {
		t.Errorf("frame step ratio up to %.3f (bound %v) and %.3f px off the true path (bound %v) while the delay changed",
			p.maxRatio, stepBound, p.maxOff, truthBound)
	}
}

func TestInterpolatorGenerationChangeNotBlended(t *testing.T) {
	ip := NewInterpolator(arena.TickRate)
	s := snapshot.New(protocol.Schema())
	q := protocol.PosQuant.Quantize
	sawOld, sawNew := false, false
	for tick := uint32(0); tick < 60; tick++ {
		s.Reset()
		id := snapshot.EntityID{Index: 3, Generation: 1}
		x := 1000 + 5*float64(tick)
		if tick >= 30 {
			id.Generation = 2
			x = 3000 + 5*float64(tick-30)
		}
		row := s.AppendUnchecked(id)
		row[protocol.FieldX], row[protocol.FieldY] = q(x), q(2000)
		now := epoch.Add(time.Duration(tick) * tickDur)
		ip.Push(tick, now, s)
		for f := range 2 {
			ip.Sample(now.Add(time.Duration(f)*tickDur/2), func(id snapshot.EntityID, e Entity) {
				switch {
				case id.Generation == 1 && e.X >= 1000 && e.X <= 1000+5*30:
					sawOld = true
				case id.Generation == 2 && e.X >= 3000 && e.X <= 3000+5*30:
					sawNew = true
				default:
					t.Fatalf("tick %d: entity %v drawn at x = %.2f: blended across the generation change", tick, id, e.X)
				}
			})
		}
	}
	if !sawOld || !sawNew {
		t.Fatalf("saw the old entity %v, the new one %v", sawOld, sawNew)
	}
}

func TestInterpolatorHeadingShortWay(t *testing.T) {
	if h := lerpAngle(350*math.Pi/180, 10*math.Pi/180, 0.5); math.Min(h, 2*math.Pi-h) > 1e-9 {
		t.Fatalf("halfway between 350° and 10° is %.3f°, want 0°", h*180/math.Pi)
	}
	if h := lerpAngle(10*math.Pi/180, 350*math.Pi/180, 0.25); math.Abs(h-5*math.Pi/180) > 1e-9 {
		t.Fatalf("a quarter of the way from 10° to 350° is %.3f°, want 5°", h*180/math.Pi)
	}
	ip := NewInterpolator(arena.TickRate)
	s := snapshot.New(protocol.Schema())
	n := 0
	for tick := uint32(0); tick < 90; tick++ {
		s.Reset()
		row := s.AppendUnchecked(snapshot.EntityID{Index: 1})
		deg := 350.0
		if tick%2 == 1 {
			deg = 10
		}
		row[protocol.FieldHeading] = protocol.HeadingQuant.Quantize(deg * math.Pi / 180)
		now := epoch.Add(time.Duration(tick) * tickDur)
		ip.Push(tick, now, s)
		for f := range 4 {
			ip.Sample(now.Add(time.Duration(f)*tickDur/4), func(_ snapshot.EntityID, e Entity) {
				n++
				if d := math.Min(e.Heading, 2*math.Pi-e.Heading) * 180 / math.Pi; d > 10.5 {
					t.Fatalf("tick %d: heading %.2f° went the long way round", tick, e.Heading*180/math.Pi)
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("nothing sampled")
	}
}

func TestInterpolatorExtrapolatesThenHolds(t *testing.T) {
	w := newWorld(1, 9, time.Second)
	w.movers[0] = mover{x0: 2000, y0: 2000, vx: 4, vy: 0}
	ip := NewInterpolator(arena.TickRate)
	for tick := uint32(0); tick <= 30; tick++ {
		ip.Push(tick, epoch.Add(time.Duration(tick)*tickDur), w.at(tick))
	}
	var x float64
	last := epoch.Add(30 * tickDur)
	prevX := math.Inf(-1)
	for f := range 60 { // the stream stops: two seconds of frames
		ip.Sample(last.Add(time.Duration(f)*time.Second/60), func(_ snapshot.EntityID, e Entity) { x = e.X })
		if x < prevX-1e-9 {
			t.Fatalf("frame %d: moved backwards from %.3f to %.3f", f, prevX, x)
		}
		prevX = x
	}
	want := 2000 + 4*float64(30+MaxExtrapolationTicks)
	if math.Abs(x-want) > 0.2 {
		t.Fatalf("held at x = %.3f, want %.3f (%d ticks of extrapolation past the newest)", x, want, MaxExtrapolationTicks)
	}
}

func TestInterpolatorIgnoresOldAndDuplicateTicks(t *testing.T) {
	w := newWorld(1, 10, time.Second)
	w.movers[0] = mover{x0: 2000, y0: 2000, vx: 4, vy: 0}
	ip := NewInterpolator(arena.TickRate)
	for tick := uint32(100); tick <= 140; tick++ {
		ip.Push(tick, epoch.Add(time.Duration(tick)*tickDur), w.at(tick))
	}
	probe := func() (x float64) {
		ip.Sample(epoch.Add(140*tickDur), func(_ snapshot.EntityID, e Entity) { x = e.X })
		return x
	}
	before := probe()
	bogus := newWorld(1, 11, time.Second)
	bogus.movers[0] = mover{x0: 100, y0: 100}
	ip.Push(50, epoch.Add(140*tickDur), bogus.at(50))   // older than the held window
	ip.Push(139, epoch.Add(140*tickDur), bogus.at(139)) // already held
	if after := probe(); after != before {
		t.Fatalf("old or duplicate tick changed the drawing: x %.3f -> %.3f", before, after)
	}
	ip.Push(0, epoch, nil) // ignored, no panic
	ip.Reset()
	called := false
	ip.Sample(epoch, func(snapshot.EntityID, Entity) { called = true })
	if called {
		t.Fatal("sampled entities after Reset")
	}
}

func TestInterpolatorNoAllocsInSteadyState(t *testing.T) {
	w := newWorld(500, 12, 10*time.Second)
	ip := NewInterpolator(arena.TickRate)
	fn := func(snapshot.EntityID, Entity) {}
	tick := uint32(0)
	step := func() {
		at := epoch.Add(time.Duration(tick)*tickDur + time.Duration(tick%3)*5*time.Millisecond)
		ip.Push(tick, at, w.at(tick))
		ip.Sample(at, fn)
		ip.Sample(at.Add(tickDur/2), fn)
		tick++
	}
	for range 2 * InterpolationHistory {
		step()
	}
	if a := testing.AllocsPerRun(200, step); a != 0 {
		t.Fatalf("%v allocations per Push+Sample in steady state, want 0", a)
	}
}
