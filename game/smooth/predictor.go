package smooth

import (
	"math"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/quant"
)

// PredictionHistory is how many of its newest inputs a [Predictor] keeps for
// replay: a little over 4 s at the arena's tick rate, far more than any round
// trip a playable connection has.
const PredictionHistory = 128

// ErrorDecay is the time constant of the exponential decay of a predictor's
// visual error: after a correction the drawn position closes 63% of the gap
// in ErrorDecay, 95% in three times that.
const ErrorDecay = 100 * time.Millisecond

// SnapDistance is the longest correction, in px, that a predictor smooths
// over. A longer one (respawn, teleport, a long stall) moves the drawn
// position at once: sliding the player across the map would be worse.
const SnapDistance = 96.0

// maxUnstick is the deepest overlap, in px, of a server position with a wall
// that a rewind pushes out of the wall. Quantizing a position that touches a
// wall to 1/8 px can put it up to 1/16 px per axis inside; from there
// arena.Map.Slide refuses every step along the wall, so the replay would stick
// where the server slid. Deeper overlaps are the server's business.
const maxUnstick = 0.5

// errorEpsilon is the visual error, in px, below which it is dropped to zero.
const errorEpsilon = 1e-4

// inputSlot is one stored input, as the server reads it, and the position
// and dash state predicted after it.
type inputSlot struct {
	seq  uint32
	in   arena.Input
	ok   bool
	x, y float64 // predicted position after the input
	pok  bool    // x, y hold a prediction (the player was alive and placed)
	dash arena.Dash
}

// Predictor predicts the player's own entity: it applies each local input at
// once, exactly as the server will (arena.MoveIntent, then arena.Dash's Press
// and Move), and reconciles with the server's state when a snapshot says which input the
// server applied last. The difference between the old prediction and the
// corrected one becomes a visual error offset that decays exponentially
// ([ErrorDecay]), so the drawn position never jumps in normal play; a
// correction longer than [SnapDistance] snaps.
//
// Dashes are predicted too. The snapshot does not carry a player's dash
// state, but the rules make it a function of the inputs the server applied
// (arena.Dash), so the predictor keeps the state it predicted after each
// input and, on a Reconcile, replays from the one after the input the server
// applied last: in the common case (every input applied once, one a tick)
// that is the server's own state, and a dash needs no correction.
//
// Until the first Reconcile with alive set the predictor has no position:
// Apply only records inputs and Ready reports false. A Predictor is not safe
// for concurrent use; the game loop owns it.
type Predictor struct {
	m      *arena.Map
	inputs [PredictionHistory]inputSlot

	newest   uint32 // newest input applied locally
	hasInput bool
	acked    uint32 // newest input the server said it applied
	hasAcked bool

	ready  bool       // alive and anchored to a server position
	x, y   float64    // predicted position after input newest
	dash   arena.Dash // predicted dash state after input newest
	px, py float64    // the position one tick before, for drawing between ticks
	ex, ey float64    // visual error: drawn = simulated + error

	ticks uint64  // inputs applied
	drawn float64 // visual time of the newest Position call, in ticks

	alwaysReplay bool // tests: rewind even when the server confirms the prediction

	stats PredictorStats
}

// CorrectionPx is the least correction a Predictor counts
// (PredictorStats.Corrections): a pixel, about what an eye can tell.
const CorrectionPx = 1.0

// PredictorStats count a predictor's corrections: reconciles that moved the
// prediction by more than CorrectionPx (their sizes summed, and the
// largest), and snaps.
type PredictorStats struct {
	Corrections                  uint64
	CorrectionSum, CorrectionMax float64
	Snaps                        uint64
}

// NewPredictor returns a predictor that moves the player through the walls of m.
func NewPredictor(m *arena.Map) *Predictor {
	return &Predictor{m: m}
}

// Apply records the input the client just sent for its next tick, with its
// sequence number (one more than the previous one), and advances the
// prediction one tick with it. Inputs not newer than the newest one applied
// are ignored. Movement and dashes are predicted: the stick, the dash button
// and, for a dash from standing, the aim.
func (p *Predictor) Apply(seq uint32, in arena.Input) {
	if p.hasInput && int32(seq-p.newest) <= 0 {
		return
	}
	p.newest, p.hasInput = seq, true
	p.ticks++
	p.px, p.py = p.x, p.y
	in = asSent(in)
	if p.ready {
		p.x, p.y = p.step(p.x, p.y, &p.dash, in)
	} else {
		dx, dy := arena.MoveIntent(in.MoveX, in.MoveY)
		p.dash.Press(in.Buttons&arena.ButtonDash != 0, dx, dy, in.Aim, false)
	}
	p.inputs[seq%PredictionHistory] = inputSlot{seq: seq, in: in, ok: true, x: p.x, y: p.y, pok: p.ready, dash: p.dash}
}

// asSent returns the input as the server reads it off the wire: buttons it
// does not know cleared, the stick clamped, the aim rounded to the wire's
// 1/65536 of a turn (a dash from standing goes along it) and wrapped as the
// server wraps it.
func asSent(in arena.Input) arena.Input {
	var b [protocol.InputSize]byte
	in = protocol.ParseInput(protocol.AppendInput(b[:0], in), 0)
	in.Aim = quant.WrapAngle(in.Aim)
	return in
}

// Reconcile corrects the prediction with a decoded snapshot: the server had
// the player at (serverX, serverY) (dequantized, in px) after applying the
// input numbered appliedSeq. The predictor rewinds there, replays the stored
// inputs after appliedSeq, and turns the difference from the previous
// prediction into visual error, so the position Position returns at the same
// alpha does not change. A server position that matches the one predicted
// for appliedSeq within its quantization (1/16 px) confirms the prediction,
// which then stands unchanged. When the total error would exceed [SnapDistance], or
// on the first call after the player was dead or unknown, it snaps instead.
//
// A snapshot whose appliedSeq is older than one already reconciled is
// ignored. With alive false the player is dead: the predictor holds the
// server's position, forgets its error and predicts nothing until a later
// call with alive true (which snaps to the respawn).
//
// Inputs older than the last [PredictionHistory] are no longer held: if the
// server lags further behind than that, only the held ones are replayed.
func (p *Predictor) Reconcile(serverX, serverY float64, appliedSeq uint32, alive bool) {
	if !finite(serverX) || !finite(serverY) {
		return
	}
	if !alive {
		p.ready = false
		p.x, p.y, p.px, p.py = serverX, serverY, serverX, serverY
		p.ex, p.ey = 0, 0
		p.acked, p.hasAcked = appliedSeq, true
		return
	}
	if p.ready && p.hasAcked && int32(appliedSeq-p.acked) < 0 {
		return // an older snapshot than one already used
	}
	p.acked, p.hasAcked = appliedSeq, true
	if p.ready && !p.alwaysReplay && p.confirmed(serverX, serverY, appliedSeq) {
		return
	}
	x, y := p.unstick(serverX, serverY)
	x, y, p.dash = p.replay(x, y, appliedSeq)
	if !p.ready {
		p.snap(x, y)
		p.ready = true
		return
	}
	dx, dy := p.x-x, p.y-y
	if c := math.Hypot(dx, dy); c > CorrectionPx {
		p.stats.Corrections++
		p.stats.CorrectionSum += c
		p.stats.CorrectionMax = max(p.stats.CorrectionMax, c)
	}
	ex, ey := p.ex+dx, p.ey+dy
	if math.Hypot(ex, ey) > SnapDistance {
		p.stats.Snaps++
		p.snap(x, y)
		return
	}
	// Shift the previous tick's position with the current one, so that the
	// drawn position at any alpha is unchanged by the correction: it shows
	// up as error, which decays.
	p.ex, p.ey = ex, ey
	p.px, p.py = p.px-dx, p.py-dy
	p.x, p.y = x, y
}

// confirmed reports whether the server's position after input seq is the
// one predicted for it, within the rounding of its quantization (1/16 px per
// axis). Then the prediction stands as it is: replaying from the rounded
// position could only make it worse (by up to one of arena.Map.Slide's
// sub-steps, where the rounding decides whether a step into a wall is
// blocked).
func (p *Predictor) confirmed(x, y float64, seq uint32) bool {
	s := &p.inputs[seq%PredictionHistory]
	if !s.ok || !s.pok || s.seq != seq {
		return false
	}
	tol := protocol.PosQuant.Precision()/2 + 1e-9
	return math.Abs(s.x-x) <= tol && math.Abs(s.y-y) <= tol
}

// snap moves the prediction to (x, y) with no error and nothing to draw between.
func (p *Predictor) snap(x, y float64) {
	p.x, p.y, p.px, p.py = x, y, x, y
	p.ex, p.ey = 0, 0
}

// Position returns where to draw the player: alpha of the way from the
// position before the newest input to the position after it, plus the
// visual error. Alpha is the usual fixed-timestep blend: the time the game's
// frame clock has run past the newest tick, as a share of a tick (clamped to
// [0, 1]), so that drawing trails the simulation by less than a tick and
// moves evenly at any frame rate.
//
// Position also advances the error's decay by the visual time elapsed since
// its previous call (ticks applied plus alpha), so the game calls it once per
// frame; calling it again with the same alpha returns the same position.
func (p *Predictor) Position(alpha float64) (x, y float64) {
	alpha = clamp01(alpha)
	vt := float64(p.ticks) + alpha
	if d := vt - p.drawn; d > 0 {
		k := math.Exp(-d * arena.Dt / ErrorDecay.Seconds())
		p.ex, p.ey = p.ex*k, p.ey*k
		if math.Abs(p.ex) < errorEpsilon && math.Abs(p.ey) < errorEpsilon {
			p.ex, p.ey = 0, 0
		}
		p.drawn = vt
	}
	return p.px + (p.x-p.px)*alpha + p.ex, p.py + (p.y-p.py)*alpha + p.ey
}

// Current returns the predicted simulation position after the newest input,
// without visual error: what the server will have once it applies that input.
func (p *Predictor) Current() (x, y float64) { return p.x, p.y }

// Error returns the visual error still being smoothed away, in px (the drawn
// position minus the simulated one, as of the last Position call).
func (p *Predictor) Error() (ex, ey float64) { return p.ex, p.ey }

// Ready reports whether the predictor has a position to predict from: a
// Reconcile with alive set has happened since the start or the last death.
func (p *Predictor) Ready() bool { return p.ready }

// Stats returns the predictor's counters.
func (p *Predictor) Stats() PredictorStats { return p.stats }

// Reset forgets everything, as for a new connection: the inputs, the
// position and the error.
func (p *Predictor) Reset() { *p = Predictor{m: p.m} }

// step moves (x, y) one tick with input in (as the server reads it) and
// advances the dash state d, as the server does for a live player.
func (p *Predictor) step(x, y float64, d *arena.Dash, in arena.Input) (float64, float64) {
	dx, dy := arena.MoveIntent(in.MoveX, in.MoveY)
	d.Press(in.Buttons&arena.ButtonDash != 0, dx, dy, in.Aim, true)
	return d.Move(p.m, x, y, dx, dy)
}

// replay applies the held inputs after applied to (x, y), from the dash
// state predicted after input applied (at rest if that input is no longer
// held), and returns the position and dash state after the newest.
func (p *Predictor) replay(x, y float64, applied uint32) (float64, float64, arena.Dash) {
	var d arena.Dash
	if slot := &p.inputs[applied%PredictionHistory]; slot.ok && slot.seq == applied {
		d = slot.dash
	}
	if !p.hasInput {
		return x, y, d
	}
	n := p.newest - applied
	if int32(n) <= 0 {
		return x, y, d // the server has applied everything sent (or claims more)
	}
	n = min(n, PredictionHistory)
	for s := p.newest - n + 1; ; s++ {
		if slot := &p.inputs[s%PredictionHistory]; slot.ok && slot.seq == s {
			x, y = p.step(x, y, &d, slot.in)
			slot.x, slot.y, slot.pok, slot.dash = x, y, true, d
		}
		if s == p.newest {
			return x, y, d
		}
	}
}

// unstick pushes a position that overlaps a wall by at most maxUnstick out of
// it, along the normal of each wall tile it overlaps.
func (p *Predictor) unstick(x, y float64) (float64, float64) {
	const r = arena.PlayerRadius
	for range 4 {
		if !p.m.Blocked(x, y, r) {
			return x, y
		}
		ox, oy := x, y
		x0, x1 := int(math.Floor((x-r)/arena.Tile)), int(math.Floor((x+r)/arena.Tile))
		y0, y1 := int(math.Floor((y-r)/arena.Tile)), int(math.Floor((y+r)/arena.Tile))
		for ty := y0; ty <= y1; ty++ {
			for tx := x0; tx <= x1; tx++ {
				if !p.m.Wall(tx, ty) {
					continue
				}
				nx := min(max(x, float64(tx*arena.Tile)), float64(tx*arena.Tile+arena.Tile))
				ny := min(max(y, float64(ty*arena.Tile)), float64(ty*arena.Tile+arena.Tile))
				d := math.Hypot(x-nx, y-ny)
				if d >= r || d == 0 || r-d > maxUnstick {
					continue
				}
				push := (r - d + 1e-6) / d
				x, y = x+(x-nx)*push, y+(y-ny)*push
			}
		}
		if x == ox && y == oy {
			break // too deep, or inside a tile: leave it to the server
		}
	}
	return x, y
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// clamp01 clamps v to [0, 1]; NaN becomes 0.
func clamp01(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	return min(v, 1)
}
