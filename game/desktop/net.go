package desktop

import (
	"errors"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop/netgraph"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/transport"
)

// netState is the game's side of the connection: which ticks it has taken
// in, when to send the next input, and the numbers the overlay shows.
type netState struct {
	tickDur    time.Duration
	clock      *client.InputClock // when inputs are due
	pushed     uint32             // newest tick pushed into the interpolator
	havePushed bool
	closed     bool

	// The overlay's numbers.
	history  netgraph.History
	down, up netgraph.Series
	loss     *netgraph.Loss
	rtt      netgraph.RoundTrip
	entities int
	baseline uint32 // the newest packet's baseline age in ticks (0: full)
	full     bool
	ahead    int // inputs sent that the newest snapshot's server had not applied
}

func (n *netState) init(tickRate float64) {
	n.tickDur = time.Duration(float64(time.Second) / tickRate)
	n.clock = client.NewInputClock(tickRate)
	n.down.Span, n.up.Span = time.Second, time.Second
	n.loss = netgraph.NewLoss(2 * time.Second)
}

// update runs once per Update: let held-back messages go, take what
// arrived, push every newly decoded tick into the interpolator and
// reconcile the prediction with the server's view of the player.
func (n *netState) update(g *Game, now time.Time) {
	if g.cfg.Conditioner != nil {
		g.cfg.Conditioner.Pump()
	}
	if !n.closed {
		select {
		case <-g.cl.Done():
			n.closed = true
			g.hud.notice(now, "disconnected from the match")
		default:
		}
	}
	decoded := g.cl.Poll()
	newest, snap := g.cl.Newest()
	st := g.cl.Stats()
	n.down.Add(now, float64(st.Conn.ReceivedBytes))
	n.up.Add(now, float64(st.Conn.SentBytes))
	if snap == nil {
		return
	}
	n.loss.Add(now, newest, st.Datagrams)
	if decoded > 0 {
		h := g.cl.LastHeader()
		n.full = h.Full()
		n.baseline = 0
		if !n.full {
			n.baseline = h.Tick - h.Baseline
		}
		n.entities = snap.Len()
		n.history.Push(netgraph.Sample{Size: g.cl.PacketSize(), Full: g.cl.FullLen(), Entities: n.entities, Delta: !n.full})
	}
	if n.havePushed && int32(newest-n.pushed) <= 0 {
		return
	}
	// Every tick newer than the last pushed that the client holds arrived
	// since the last Update: in tick order, so reconciling only moves forward.
	from := newest // the first time: only the newest, or the jitter estimate would see a burst
	if n.havePushed {
		from = max(n.pushed+1, newest-protocol.History+1)
	}
	for t := from; int32(t-newest) <= 0; t++ {
		s := g.cl.Snapshot(t)
		if s == nil {
			continue
		}
		g.interp.Push(t, now, s)
		g.kc.reel.Push(t, s)
		g.confirmShots(t, s, now) // before the sound, which skips the predicted shots' copies
		g.soundSnapshot(now, t, s)
		n.reconcile(g, t, s, now)
	}
	n.pushed, n.havePushed = newest, true
}

// reconcile corrects the prediction with the player's entity in tick t.
func (n *netState) reconcile(g *Game, t uint32, s *snapshot.Snapshot, now time.Time) {
	slot, ok := g.cl.Self()
	if !ok || g.pred == nil || g.spectating() {
		return
	}
	i, ok := s.Find(slot)
	if !ok {
		return
	}
	seq, ok := g.cl.AppliedInput(t)
	if !ok {
		return
	}
	n.rtt.Applied(seq, now)
	g.kc.reel.Applied(t, seq)
	n.ahead = int(int32(g.cl.InputSeq() - seq))
	row := s.Row(i)
	x, y := protocol.PosQuant.Dequantize(row[protocol.FieldX]), protocol.PosQuant.Dequantize(row[protocol.FieldY])
	alive := row[protocol.FieldState]&protocol.StateDead == 0
	g.pred.Reconcile(x, y, seq, alive)
}

// send sends the inputs the input clock says are due: one per server
// tick, a little sooner or later to keep the server's queue of them a
// little above empty (client.InputClock); at 60 Updates a second and 30
// ticks, about every other Update. The clock follows time rather than
// counting Updates, so that a slow machine (Ebitengine runs fewer Updates
// when frames are late) still sends one input per tick, two in one Update
// if need be; a longer stall is skipped, not caught up. Each input is applied to the prediction under
// the sequence number it went out with.
func (n *netState) send(g *Game, now time.Time, in arena.Input) {
	n.clock.Report(g.cl.TakeSpare())
	k := n.clock.Due(now)
	in.View = g.interp.View() // what the player saw when giving it: the last frame drawn
	for ; k > 0 && !n.closed; k-- {
		if err := g.cl.SendInput(in); err != nil && !errors.Is(err, transport.ErrCongested) {
			g.log.Warn("input not sent", "err", err)
			return
		}
		seq := g.cl.InputSeq()
		g.soundInput(now, in)
		n.rtt.Sent(seq, now)
		if g.pred != nil {
			g.pred.Apply(seq, in)
			g.predictShot(now, seq, in)
		}
	}
}

// alpha is how far the frame at now is into the current predicted tick, 0..1.
func (n *netState) alpha(now time.Time) float64 { return n.clock.Alpha(now) }
