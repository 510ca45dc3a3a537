package smooth

import (
	"math"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
)

// dashWalk is the input of tick seq of a walk with dashes: right, a dash to
// the right (the button held three ticks, as a quick tap is), right, down
// with a press during the cooldown (refused), left with a dash once the
// cooldown is over, then standing with the aim up and a dash along it. The
// aim is never one the wire carries exactly.
func dashWalk(seq uint32) arena.Input {
	const aim = 4.712389 // about -π/2
	in := arena.Input{Aim: aim + float64(seq)*1e-7}
	switch {
	case seq <= 40:
		in.MoveX = 127
	case seq <= 60:
		in.MoveY = 127
	case seq <= 100:
		in.MoveX = -127
	}
	for _, press := range []uint32{16, 45, 75, 135} {
		if seq >= press && seq < press+3 {
			in.Buttons |= arena.ButtonDash
		}
	}
	return in
}

// The presses of dashWalk that start a dash, and the one that cannot.
const (
	dashPress, refusedPress, dashPress2, standingPress = 16, 45, 75, 135
	dashWalkTicks                                      = 200
)

// worldSim runs a Predictor against a real arena World: each tick the client
// applies one input and sends it (its wire encoding), the server takes the
// inputs that have arrived and steps, and its position for the player, with
// the input it applied last, comes back latency ticks later.
type worldSim struct {
	t        *testing.T
	w        *arena.World
	p        *Predictor
	latency  uint32
	quantize bool
	lost     map[uint32]bool // inputs that never arrive

	up   []upMsg
	down []downMsg

	predicted map[uint32][2]float64 // the prediction for each input when applied
	settled   uint32                // inputs after it count as settled

	// Measured.
	maxPredErr     float64 // largest |predicted - server| after an input, in px
	settledPredErr float64 // the same for the inputs after settled
	maxCorr        float64 // largest change of the visual error by one Reconcile
	settledCorr    float64 // the same once the client applied input settled
	reconciles     int
}

func newWorldSim(t *testing.T, seed uint64, latency uint32) *worldSim {
	w, err := arena.NewWorld(arena.Config{Seed: seed, Creatures: -1, Pickups: -1})
	if err != nil {
		t.Fatal(err)
	}
	w.AddPlayer(1)
	return &worldSim{
		t: t, w: w, p: NewPredictor(arena.NewMap(w.MapSeed())), latency: latency,
		lost: map[uint32]bool{}, predicted: map[uint32][2]float64{},
	}
}

func (s *worldSim) tick(seq uint32) {
	// The client: snapshots that arrived, then this tick's input.
	k := 0
	for _, d := range s.down {
		if d.at > int(seq) {
			s.down[k] = d
			k++
			continue
		}
		ex, ey := s.p.Error()
		s.p.Reconcile(d.x, d.y, d.applied, true)
		s.reconciles++
		fx, fy := s.p.Error()
		c := math.Hypot(fx-ex, fy-ey)
		s.maxCorr = max(s.maxCorr, c)
		if seq > s.settled {
			s.settledCorr = max(s.settledCorr, c)
		}
	}
	s.down = s.down[:k]
	in := dashWalk(seq)
	s.p.Apply(seq, in)
	if s.p.Ready() {
		x, y := s.p.Current()
		s.predicted[seq] = [2]float64{x, y}
	}
	if !s.lost[seq] {
		s.up = append(s.up, upMsg{at: int(seq + s.latency), seq: seq, in: protocol.ParseInput(protocol.AppendInput(nil, in), 0)})
	}

	// The server: inputs that arrived, a step, the player's state.
	k = 0
	for _, u := range s.up {
		if u.at > int(seq) {
			s.up[k] = u
			k++
			continue
		}
		s.w.ApplyInput(1, u.seq, u.in)
	}
	s.up = s.up[:k]
	s.w.Step()
	info, ok := s.w.Player(1)
	if !ok || info.Dead {
		s.t.Fatalf("tick %d: the player is gone or dead", seq)
	}
	applied := s.w.AppliedInput(1)
	if pr, ok := s.predicted[applied]; ok && applied != 0 {
		e := math.Hypot(pr[0]-info.X, pr[1]-info.Y)
		s.maxPredErr = max(s.maxPredErr, e)
		if applied > s.settled {
			s.settledPredErr = max(s.settledPredErr, e)
		}
		delete(s.predicted, applied)
	}
	x, y := info.X, info.Y
	if s.quantize {
		x, y = protocol.PosQuant.Dequantize(protocol.PosQuant.Quantize(x)), protocol.PosQuant.Dequantize(protocol.PosQuant.Quantize(y))
	}
	s.down = append(s.down, downMsg{at: int(seq + s.latency + 1), x: x, y: y, applied: applied})
}

// quantOffset is the farthest a position rounded to the snapshot's 1/8 px
// lies from the exact one: 1/16 px on each axis.
var quantOffset = math.Hypot(protocol.PosQuant.Precision()/2, protocol.PosQuant.Precision()/2) + 1e-9

// TestPredictorDashMatchesWorld runs dashWalk against a real World (four
// maps, the player where it spawns, walls and all) and checks that the
// predictor gets the dashes right.
//
// With every input arriving no Reconcile corrects anything, and each input's
// predicted position is the server's: exactly when the server's positions
// come back exact; within quantCorrectionBound when they come back rounded
// to 1/8 px, as in the game (the rounding of a position against a wall can
// decide one of Slide's sub-steps, as when walking).
//
// A lost input makes the server run a tick without one, walking or dashing
// on as the predictor did with the input; the one snapshot of that tick
// shows a step the predictor puts after the input, a correction of one step
// that the next snapshot takes back. A lost press costs a little more: the
// server dashes one tick later (a held button presses on the next input),
// and the predictor's dash state is a tick ahead until that dash is over.
// Either way each correction is at most a dash step, and once the server
// is past the loss, the dash and a round trip, the prediction is exact again
// and stays so: the dash state the predictor rebuilt is the server's.
func TestPredictorDashMatchesWorld(t *testing.T) {
	const dashStep = arena.DashSpeed*arena.Dt + arena.PositionGrid // a tick ends on the position grid
	cases := []struct {
		name     string
		lost     uint32 // 0: none
		latency  uint32
		quantize bool
	}{
		{"every input", 0, 3, false},
		{"every input, no latency", 0, 0, false},
		{"every input, quantized", 0, 3, true},
		{"lost while walking", dashPress - 5, 3, false},
		{"lost in the dash", dashPress + 2, 3, false},
		{"lost in the dash, quantized", dashPress + 3, 3, true},
		{"lost in the second dash", dashPress2 + 1, 2, false},
		{"lost right after the dash", dashPress + arena.DashTicks, 3, false},
		{"lost press", dashPress, 3, false},
		{"lost press, quantized", dashPress2, 3, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			corrected := false
			for seed := uint64(1); seed <= 4; seed++ {
				s := newWorldSim(t, seed, c.latency)
				s.quantize = c.quantize
				s.settled = 0
				if c.lost != 0 {
					s.lost[c.lost] = true
					s.settled = c.lost + arena.DashTicks + 2*c.latency + 2
				}
				info, _ := s.w.Player(1)
				x, y := info.X, info.Y
				if c.quantize {
					x, y = protocol.PosQuant.Dequantize(protocol.PosQuant.Quantize(x)), protocol.PosQuant.Dequantize(protocol.PosQuant.Quantize(y))
				}
				s.p.Reconcile(x, y, 0, true) // the welcome's snapshot
				for seq := uint32(1); seq <= dashWalkTicks; seq++ {
					s.tick(seq)
				}
				st := s.w.Stats()
				ex, ey := s.p.Error()
				t.Logf("seed %d: dashes %d, refused %d; largest prediction error %.3g px (%.3g once settled), largest correction %.3g px (%.3g once settled), error left %.3g px, %d reconciles",
					seed, st.Dashes, st.DashesRefused, s.maxPredErr, s.settledPredErr, s.maxCorr, s.settledCorr, math.Hypot(ex, ey), s.reconciles)
				if st.Dashes != 3 || st.DashesRefused != 1 {
					t.Fatalf("seed %d: %d dashes, %d refused; the walk makes 3 and 1", seed, st.Dashes, st.DashesRefused)
				}
				corrected = corrected || s.maxCorr > quantCorrectionBound
				bound := 0.0
				if c.quantize {
					bound = quantCorrectionBound
				}
				if s.settledCorr > bound || s.settledPredErr > bound {
					t.Errorf("seed %d: correction %.3g px, prediction error %.3g px (after input %d): want at most %g",
						seed, s.settledCorr, s.settledPredErr, s.settled, bound)
				}
				if s.maxCorr > dashStep+bound+1e-9 {
					t.Errorf("seed %d: a correction of %.3f px, more than a dash step", seed, s.maxCorr)
				}
			}
			if c.lost != 0 && !corrected {
				t.Error("no seed made a correction: the loss did not test the dash")
			}
		})
	}
}
