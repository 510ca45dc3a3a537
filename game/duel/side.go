package duel

import (
	"errors"
	"math"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/smooth"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/transport"
)

// side is one player's client as a game drives it: it takes in every
// decoded tick in order (interpolation, reconciliation of the predicted
// movement, confirmation of the predicted shots) and sends inputs, each
// applied to the prediction under its sequence number.
type side struct {
	cl     *client.Client
	m      *arena.Map
	pred   *smooth.Predictor
	interp *smooth.Interpolator
	shots  *smooth.Shots
	items  *brain.Brain       // reads the loadout records
	clock  *client.InputClock // when its inputs are due

	// When each recent input went (by seq modulo its length), the newest
	// input the server said it applied, and each input's delay from its
	// send to the snapshot that first said so, in ms.
	sentAt            [128]time.Time
	applied           uint32
	delays            []float64
	framesOff, frames int // frames drawn, and of them those that drew the own player over a pixel off

	round    arena.Clock // the round clock record
	hasRound bool

	self       uint16
	id         arena.PlayerID
	pushed     uint32
	havePushed bool
	alive      bool // the player's own entity in the newest tick taken in
	now        time.Time

	// onTick, if set, sees every tick taken in, in order, after the
	// prediction has been reconciled with it.
	onTick func(t uint32, s *snapshot.Snapshot)
}

func newSide(cl *client.Client, seed uint64) *side {
	return &side{cl: cl, interp: smooth.NewInterpolator(arena.TickRate), items: brain.New(seed), clock: client.NewInputClock(arena.TickRate)}
}

// ready reports whether the side knows its player and map and has a
// position to predict from.
func (s *side) ready() bool { return s.pred != nil && s.pred.Ready() }

// poll takes in what arrived by now.
func (s *side) poll(now time.Time) {
	s.now = now
	s.cl.Poll()
	if s.pred == nil {
		slot, ok := s.cl.Self()
		id, _ := s.cl.Player()
		if ok {
			s.self, s.id = slot, id
			s.m = arena.NewMap(s.cl.MapSeed())
			s.pred, s.shots = smooth.NewPredictor(s.m), smooth.NewShots(s.m)
		}
	}
	newest, snap := s.cl.Newest()
	if snap == nil || (s.havePushed && int32(newest-s.pushed) <= 0) {
		return
	}
	from := newest // the first time: only the newest
	if s.havePushed {
		from = s.pushed + 1
		if int32(newest-from) >= protocol.History {
			from = newest - protocol.History + 1
		}
	}
	for t := from; int32(t-newest) <= 0; t++ {
		st := s.cl.Snapshot(t)
		if st == nil {
			continue
		}
		s.interp.Push(t, now, st)
		s.reconcile(t, st, now)
		if s.onTick != nil {
			s.onTick(t, st)
		}
	}
	s.pushed, s.havePushed = newest, true
	s.items.Read(s.cl)
	s.cl.Records(func(id uint32, _ uint16, payload []byte) {
		if kind, _ := protocol.RecordKind(id); kind == protocol.RecordClock {
			if c, err := protocol.ParseClock(payload); err == nil {
				s.round, s.hasRound = c, true
			}
		}
	})
}

// roundCuts reports whether the round's end (the clock record) comes
// before a shot of the next input would be over: that input is applied
// about as many ticks after the newest as the inputs the server has not
// applied yet, and its bolt flies arena.ProjectileTicks; the server fires
// nothing in the intermission, and the bolts in flight at the round's end
// vanish. A perfect player sees the round clock and holds fire.
func (s *side) roundCuts() bool {
	newest, _ := s.cl.Newest()
	applied, ok := s.cl.AppliedInput(newest)
	if !s.hasRound || !ok {
		return false
	}
	at := newest + (s.cl.InputSeq() + 1 - applied)
	return at+arena.ProjectileTicks+2 >= s.round.End && at < s.round.Next+2
}

func (s *side) reconcile(t uint32, st *snapshot.Snapshot, now time.Time) {
	if s.pred == nil {
		return
	}
	i, ok := st.Find(s.self)
	if !ok {
		return
	}
	seq, ok := s.cl.AppliedInput(t)
	if !ok {
		return
	}
	s.noteApplied(seq, now)
	row := st.Row(i)
	x, y := protocol.PosQuant.Dequantize(row[protocol.FieldX]), protocol.PosQuant.Dequantize(row[protocol.FieldY])
	alive := row[protocol.FieldState]&protocol.StateDead == 0
	if alive && !s.alive {
		s.shots.Reset() // a respawn: the fire clock starts again
	}
	s.alive = alive
	s.pred.Reconcile(x, y, seq, alive)
	s.shots.Confirm(st, t, seq, now)
}

// noteApplied takes the server's word that it applied the inputs up to
// seq, said in a snapshot that arrived at now: each input newly applied
// took now less its send time (a round trip, less the snapshot's way
// back, which the duel subtracts).
func (s *side) noteApplied(seq uint32, now time.Time) {
	if int32(seq-s.applied) <= 0 {
		return
	}
	from := s.applied + 1
	if seq-from >= uint32(len(s.sentAt)) {
		from = seq - uint32(len(s.sentAt)) + 1
	}
	for q := from; int32(q-seq) <= 0; q++ {
		if at := s.sentAt[q%uint32(len(s.sentAt))]; !at.IsZero() {
			s.delays = append(s.delays, float64(now.Sub(at))/float64(time.Millisecond))
			s.sentAt[q%uint32(len(s.sentAt))] = time.Time{}
		}
	}
	s.applied = seq
}

// position returns the predicted position after the newest input.
func (s *side) position() point {
	x, y := s.pred.Current()
	return point{x, y}
}

// send sends in and applies it to the prediction; it returns the input's
// sequence number. A congested link is no error: the next inputs carry it.
func (s *side) send(in arena.Input) (uint32, error) {
	err := s.cl.SendInput(in)
	if errors.Is(err, transport.ErrCongested) {
		err = nil
	}
	seq := s.cl.InputSeq()
	s.sentAt[seq%uint32(len(s.sentAt))] = s.now
	if s.pred != nil {
		s.pred.Apply(seq, in)
	}
	return seq, err
}

// drawSelf draws the own player at now, as a frame does (its visual error
// decays), and counts the frame if it is drawn over a pixel off.
func (s *side) drawSelf(now time.Time) {
	if s.pred == nil || !s.pred.Ready() {
		return
	}
	s.pred.Position(s.clock.Alpha(now))
	s.frames++
	if ex, ey := s.pred.Error(); math.Hypot(ex, ey) > smooth.CorrectionPx {
		s.framesOff++
	}
}

// weapon returns what the player's next shot fires, as its loadout record says.
func (s *side) weapon() arena.Weapon {
	if l := s.items.Loadout(); l.Weapon == arena.WeaponSpread && l.Shots > 0 {
		return arena.WeaponSpread
	}
	return arena.WeaponGun
}
