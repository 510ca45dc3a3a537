package smooth

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
)

// Bounds the prediction tests hold the predictor to.
const (
	// exactEpsilon: with a server that runs the same moves on the same
	// floats, reconciling must not move the drawn position at all.
	exactEpsilon = 1e-9
	// quantCorrectionBound is the largest change per frame (60 FPS) of the
	// drawn position's offset from the true (unquantized) path when the
	// server's positions are rounded to 1/8 px. With the confirmation of
	// predictions within the rounding it is 0; rewinding to every rounded
	// position instead stays under rawQuantCorrectionBound: the rounding
	// can decide whether one of Slide's 3.67 px sub-steps into a wall is
	// blocked, an error that then decays at up to 15% of it per frame.
	quantCorrectionBound    = 0.5
	rawQuantCorrectionBound = 2.0
	// lossyExtraStep is how much longer than the fastest move in one frame
	// (PlayerSpeed/60 = 3.67 px) a frame-to-frame step may be while the
	// predictor smooths over inputs the server dropped or applied late.
	lossyExtraStep = 3.5
)

// frameMove is the longest distance the player moves in one 60 FPS frame.
const frameMove = arena.PlayerSpeed / 60.0

// predSim is a client and a server, ticking at 30 Hz, with the client drawing
// at 60 FPS (two frames a tick). Inputs take latency ticks to reach the server,
// snapshots latency ticks plus half a tick to come back, so reconciliation
// happens mid-tick.
type predSim struct {
	t        *testing.T
	m        *arena.Map
	p        *Predictor
	ref      *Predictor // never reconciled after the start: the exact path
	rng      *rand.Rand
	latency  int // frames one way (even)
	quantize bool
	drop     float64 // share of inputs that never reach the server
	late     float64 // share of inputs that reach it a tick late

	frame   int
	seq     uint32
	in      arena.Input
	inLeft  int // ticks until the input changes
	sx, sy  float64
	applied uint32
	lastIn  arena.Input
	up      []upMsg
	down    []downMsg

	// Measured.
	maxExact, maxCorr, maxStep, maxErr float64
	lastX, lastY, lastRX, lastRY       float64
	drawn                              bool
}

type upMsg struct {
	at  int
	seq uint32
	in  arena.Input
}

type downMsg struct {
	at      int
	x, y    float64
	applied uint32
}

func newPredSim(t *testing.T, seed uint64, latencyTicks int) *predSim {
	m := arena.NewMap(seed)
	s := &predSim{t: t, m: m, p: NewPredictor(m), ref: NewPredictor(m),
		rng: rand.New(rand.NewPCG(seed, 7)), latency: 2 * latencyTicks,
		sx: arena.WorldSize / 2, sy: arena.WorldSize / 2}
	s.p.Reconcile(s.sx, s.sy, 0, true)
	s.ref.Reconcile(s.sx, s.sy, 0, true)
	return s
}

// nextInput walks in a random direction for a while (often into walls), or
// stands still.
func (s *predSim) nextInput() arena.Input {
	if s.inLeft <= 0 {
		s.inLeft = 10 + s.rng.IntN(60)
		if s.rng.IntN(6) == 0 {
			s.in = arena.Input{}
		} else {
			a := s.rng.Float64() * 2 * math.Pi
			f := 0.3 + 0.7*s.rng.Float64()
			if s.rng.IntN(2) == 0 {
				f = 1
			}
			s.in = arena.Input{MoveX: int8(math.Round(127 * f * math.Cos(a))), MoveY: int8(math.Round(127 * f * math.Sin(a)))}
		}
	}
	s.inLeft--
	return s.in
}

// serverTick applies every input that has arrived, in order (one tick's
// worth each); with none it repeats the last one, as a server that keeps a
// player moving through a late input does.
func (s *predSim) serverTick() {
	moved := false
	for {
		best := -1
		for i, u := range s.up {
			if u.at <= s.frame && int32(u.seq-s.applied) > 0 && (best < 0 || int32(u.seq-s.up[best].seq) < 0) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		u := s.up[best]
		s.up = append(s.up[:best], s.up[best+1:]...)
		dx, dy := arena.MoveIntent(u.in.MoveX, u.in.MoveY)
		s.sx, s.sy = arena.MovePlayer(s.m, s.sx, s.sy, dx, dy)
		s.applied, s.lastIn, moved = u.seq, u.in, true
	}
	if !moved {
		dx, dy := arena.MoveIntent(s.lastIn.MoveX, s.lastIn.MoveY)
		s.sx, s.sy = arena.MovePlayer(s.m, s.sx, s.sy, dx, dy)
	}
	// Forget inputs the server has passed (they arrived too late).
	k := 0
	for _, u := range s.up {
		if int32(u.seq-s.applied) > 0 {
			s.up[k] = u
			k++
		}
	}
	s.up = s.up[:k]
	x, y := s.sx, s.sy
	if s.quantize {
		x, y = protocol.PosQuant.Dequantize(protocol.PosQuant.Quantize(x)), protocol.PosQuant.Dequantize(protocol.PosQuant.Quantize(y))
	}
	s.down = append(s.down, downMsg{at: s.frame + s.latency + 1, x: x, y: y, applied: s.applied})
}

// step runs one frame: snapshots due, a tick on even frames, then drawing.
func (s *predSim) step() {
	k := 0
	for _, d := range s.down {
		if d.at <= s.frame {
			s.p.Reconcile(d.x, d.y, d.applied, true)
			s.checkWalls()
			continue
		}
		s.down[k] = d
		k++
	}
	s.down = s.down[:k]
	if s.frame%2 == 0 {
		s.seq++
		in := s.nextInput()
		s.p.Apply(s.seq, in)
		s.ref.Apply(s.seq, in)
		s.checkWalls()
		if r := s.rng.Float64(); r >= s.drop {
			at := s.frame + s.latency
			if r < s.drop+s.late {
				at += 2
			}
			s.up = append(s.up, upMsg{at: at, seq: s.seq, in: in})
		}
		s.serverTick()
	}
	alpha := float64(s.frame%2) / 2
	x, y := s.p.Position(alpha)
	rx, ry := s.ref.Position(alpha)
	s.maxExact = max(s.maxExact, math.Hypot(x-rx, y-ry))
	if s.drawn {
		s.maxCorr = max(s.maxCorr, math.Hypot((x-rx)-(s.lastX-s.lastRX), (y-ry)-(s.lastY-s.lastRY)))
		s.maxStep = max(s.maxStep, math.Hypot(x-s.lastX, y-s.lastY))
	}
	ex, ey := s.p.Error()
	s.maxErr = max(s.maxErr, math.Hypot(ex, ey))
	s.lastX, s.lastY, s.lastRX, s.lastRY, s.drawn = x, y, rx, ry, true
	s.frame++
}

func (s *predSim) checkWalls() {
	s.t.Helper()
	if x, y := s.p.Current(); s.m.Blocked(x, y, arena.PlayerRadius) {
		s.t.Fatalf("frame %d: predicted position (%.3f, %.3f) is inside a wall", s.frame, x, y)
	}
}

func (s *predSim) run(frames int) {
	for range frames {
		s.step()
	}
}

func TestPredictorExactServerNeverCorrects(t *testing.T) {
	for _, lat := range []int{0, 1, 3, 8} {
		s := newPredSim(t, 11, lat)
		s.run(60 * 30)
		t.Logf("latency %d ticks: largest drawn difference from the exact path %.3g px", lat, s.maxExact)
		if s.maxExact > exactEpsilon {
			t.Errorf("latency %d ticks: reconciling moved the drawn position by %g px (bound %g)", lat, s.maxExact, exactEpsilon)
		}
	}
}

func TestPredictorQuantizedServerCorrectsSlightly(t *testing.T) {
	for _, raw := range []bool{false, true} {
		bound := quantCorrectionBound
		if raw {
			bound = rawQuantCorrectionBound
		}
		for seed := uint64(1); seed <= 6; seed++ {
			s := newPredSim(t, seed, 3)
			s.quantize = true
			s.p.alwaysReplay = raw
			s.run(60 * 60)
			t.Logf("always replay %v, seed %d: largest correction per frame %.4f px, largest offset from the exact path %.4f px",
				raw, seed, s.maxCorr, s.maxExact)
			if s.maxCorr > bound {
				t.Errorf("always replay %v, seed %d: correction per frame %.4f px > %v", raw, seed, s.maxCorr, bound)
			}
		}
	}
}

func TestPredictorDroppedAndLateInputsSmoothed(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		s := newPredSim(t, seed, 3)
		s.quantize = true
		s.drop, s.late = 0.05, 0.05
		s.run(60 * 30)
		t.Logf("seed %d: largest frame-to-frame step %.3f px (fastest move %.3f px), largest error %.3f px", seed, s.maxStep, frameMove, s.maxErr)
		if s.maxStep > frameMove+lossyExtraStep {
			t.Errorf("seed %d: frame-to-frame step %.3f px > %.3f", seed, s.maxStep, frameMove+lossyExtraStep)
		}
		if s.maxErr < 1 {
			t.Errorf("seed %d: largest error %.3f px: the scenario made no mispredictions to smooth", seed, s.maxErr)
		}
		// A clean second standing still lets the error die out. (Moving,
		// a trajectory re-anchored on a rounded position can still flip
		// one of Slide's sub-steps against a wall now and then.)
		s.drop, s.late = 0, 0
		s.in, s.inLeft = arena.Input{}, 1000
		s.run(60)
		ex, ey := s.p.Error()
		if e := math.Hypot(ex, ey); e > 0.01 {
			t.Errorf("seed %d: error %.4f px one clean second later, want < 0.01", seed, e)
		}
		cx, cy := s.p.Current()
		x, y := s.p.Position(1)
		if d := math.Hypot(x-cx, y-cy); d > 0.01 {
			t.Errorf("seed %d: drawn position %.4f px from the simulated one after recovery", seed, d)
		}
	}
}

func TestPredictorReconcileKeepsDrawnPosition(t *testing.T) {
	m := arena.NewMap(3)
	p := NewPredictor(m)
	p.Reconcile(2048, 2048, 0, true)
	in := arena.Input{MoveX: 127}
	for seq := uint32(1); seq <= 10; seq++ {
		p.Apply(seq, in)
	}
	bx, by := p.Position(0.5)
	// The server lost two inputs: it is two ticks behind at seq 6. (A
	// step ends on the position grid.)
	sx, _ := arena.MovePlayer(m, 2048, 2048, 1, 0)
	step := sx - 2048
	p.Reconcile(2048+4*step, 2048, 6, true)
	ax, ay := p.Position(0.5)
	if math.Hypot(ax-bx, ay-by) > exactEpsilon {
		t.Fatalf("drawn position moved from (%v, %v) to (%v, %v) at the correction", bx, by, ax, ay)
	}
	if cx, _ := p.Current(); math.Abs(cx-(2048+8*step)) > 1e-9 {
		t.Fatalf("current x %v, want %v", cx, 2048+8*step)
	}
	if ex, _ := p.Error(); math.Abs(ex-2*step) > 1e-9 {
		t.Fatalf("error %v, want %v", ex, 2*step)
	}
	// Standing still, the error halves in ErrorDecay·ln2 and is gone in a second.
	var last float64 = ax
	for seq := uint32(11); seq <= 40; seq++ {
		p.Apply(seq, arena.Input{})
		for _, a := range []float64{0, 0.5} {
			x, _ := p.Position(a)
			if d := math.Abs(x - last); d > 2*step*(1-math.Exp(-arena.Dt/2/ErrorDecay.Seconds()))+1e-9 {
				t.Fatalf("frame step %.3f px while settling", d)
			}
			last = x
		}
	}
	if ex, ey := p.Error(); math.Hypot(ex, ey) > 1e-3 {
		t.Fatalf("error (%v, %v) left after a second", ex, ey)
	}
}

// grid returns v on the position grid a move ends on (arena.Map.Snap), in
// the open.
func grid(v float64) float64 { return math.Round(v/arena.PositionGrid) * arena.PositionGrid }

func TestPredictorTeleportSnaps(t *testing.T) {
	s := newPredSim(t, 9, 2)
	s.run(120)
	cx, cy := s.p.Current()
	tx, ty := cx+300, cy
	if s.m.Blocked(tx, ty, arena.PlayerRadius) {
		tx, ty = s.m.OpenSpot(rand.New(rand.NewPCG(1, 2)), arena.PlayerRadius)
	}
	s.p.Reconcile(tx, ty, s.seq, true) // the server applied everything and moved us
	x, y := s.p.Position(0.5)
	if x != tx || y != ty {
		t.Fatalf("after a teleport drawn at (%v, %v), want a snap to (%v, %v)", x, y, tx, ty)
	}
	if ex, ey := s.p.Error(); ex != 0 || ey != 0 {
		t.Fatalf("error (%v, %v) after a snap", ex, ey)
	}
}

func TestPredictorDeathAndRespawn(t *testing.T) {
	m := arena.NewMap(4)
	p := NewPredictor(m)
	p.Apply(1, arena.Input{MoveX: 127}) // before any snapshot: no position
	if p.Ready() {
		t.Fatal("ready before the first snapshot")
	}
	p.Reconcile(2048, 2048, 0, true)
	if x, _ := p.Current(); x != grid(2048+arena.PlayerSpeed*arena.Dt) {
		t.Fatalf("first reconcile did not replay the held input: x = %v", x)
	}
	p.Reconcile(2000, 2000, 1, false)
	p.Apply(2, arena.Input{MoveX: 127})
	if x, y := p.Position(0.3); x != 2000 || y != 2000 || p.Ready() {
		t.Fatalf("dead player predicted to (%v, %v), ready %v", x, y, p.Ready())
	}
	// Respawn close by: still a snap, not a slide.
	p.Reconcile(2030, 2000, 2, true)
	if x, y := p.Position(0); x != 2030 || y != 2000 {
		t.Fatalf("respawn drawn at (%v, %v), want (2030, 2000)", x, y)
	}
}

func TestPredictorIgnoresStaleAndOldInput(t *testing.T) {
	m := arena.NewMap(4)
	p := NewPredictor(m)
	p.Reconcile(2048, 2048, 0, true)
	for seq := uint32(1); seq <= 5; seq++ {
		p.Apply(seq, arena.Input{MoveY: 127})
	}
	p.Apply(3, arena.Input{MoveX: 127}) // old: ignored
	_, y := p.Current()
	p.Reconcile(2048, 2048+4*grid(arena.PlayerSpeed*arena.Dt), 4, true)
	p.Reconcile(0, 0, 2, true) // older than seq 4: ignored
	x2, y2 := p.Current()
	if x2 != 2048 || math.Abs(y2-y) > 1e-9 {
		t.Fatalf("current (%v, %v), want (2048, %v)", x2, y2, y)
	}
}

func TestPredictorUnsticksQuantizedWallContact(t *testing.T) {
	m := arena.NewMap(1)
	// Find a wall tile with open space to its left: put the player against
	// its left face, 0.06 px inside, and walk along the wall (down).
	for ty := 2; ty < arena.Tiles-4; ty++ {
		for tx := 2; tx < arena.Tiles-2; tx++ {
			if !m.Wall(tx, ty) || !m.Wall(tx, ty+1) || !m.Wall(tx, ty+2) || m.Wall(tx-1, ty) || m.Wall(tx-1, ty+1) || m.Wall(tx-1, ty+2) || m.Wall(tx-1, ty-1) {
				continue
			}
			x := float64(tx*arena.Tile) - arena.PlayerRadius + 0.06
			y := float64(ty*arena.Tile) + 8
			if !m.Blocked(x, y, arena.PlayerRadius) {
				t.Fatal("test position is not inside the wall")
			}
			p := NewPredictor(m)
			p.Reconcile(x, y, 0, true)
			for seq := uint32(1); seq <= 10; seq++ {
				p.Apply(seq, arena.Input{MoveX: 60, MoveY: 127})
				if cx, cy := p.Current(); m.Blocked(cx, cy, arena.PlayerRadius) {
					t.Fatalf("predicted (%v, %v) inside the wall", cx, cy)
				}
			}
			if _, cy := p.Current(); cy-y < 50 {
				t.Fatalf("stuck against the wall: moved %.2f px along it in 10 ticks", cy-y)
			}
			return
		}
	}
	t.Fatal("no wall in map 1 suits the test: pick another map seed")
}

func TestPredictorReplaysOnlyHeldInputs(t *testing.T) {
	m := arena.NewMap(2)
	p := NewPredictor(m)
	p.Reconcile(2048, 2048, 0, true)
	for seq := uint32(1); seq <= 300; seq++ {
		p.Apply(seq, arena.Input{})
	}
	// The server is 300 inputs behind: only the newest 128 can be replayed
	// (all standing still here), and nothing panics.
	p.Reconcile(2050, 2048, 0, true)
	if x, _ := p.Current(); x != 2050 {
		t.Fatalf("x = %v, want 2050", x)
	}
	p.Reset()
	if p.Ready() {
		t.Fatal("ready after Reset")
	}
}
