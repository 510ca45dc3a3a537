// Package killcam replays a death from the killer's side: the last
// seconds before the fatal blow as the killer's screen drew them, from the
// ticks the victim's own client held (a smooth.Reel), at the view the
// server judged the blow at (the kill event's judgement, protocol version
// 7). It decides what each frame shows; the desktop game draws it.
//
// The killer's screen drew everyone else in its past (interpolation), by
// as much as the kill's Behind says at the fatal moment, and itself and
// its bolts in its present (prediction): so a frame of the replay at
// server time T draws the others as they were at T - Behind, and the
// killer and the projectiles as they were at T. At the fatal moment it
// holds, and marks where the killer's screen had the victim (the server's
// judged position, exactly as the kill event says) beside where the
// victim's own screen had itself (or, for a spectator, where the server
// had the victim then).
//
// The package knows no Ebitengine, so its tests run anywhere.
package killcam

import (
	"fmt"
	"math"
	"time"

	"github.com/sightline-game/sightline/game/desktop/controls"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/smooth"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Timing of a killcam.
const (
	// ReplayTicks is how much of the killer's timeline before the blow is
	// replayed, at most: 1.5 s at 30 Hz. The respawn comes 3 s after the
	// death, and the verdict should have time on screen before it.
	ReplayTicks = 45
	// Hold is how long the fatal moment stays on screen after the replay
	// reaches it, at most (the respawn ends it sooner).
	Hold = 2500 * time.Millisecond
	// Wait is how long a killcam waits for the snapshot of the kill's tick
	// to arrive after the kill event; then it plays what the reel holds.
	Wait = 400 * time.Millisecond
)

// Phase is what a killcam shows.
type Phase uint8

// Phases.
const (
	Off     Phase = iota // no killcam
	Waiting              // a kill came; its tick's snapshot has not yet
	Replay               // the seconds before the blow, as the killer drew them
	Verdict              // the fatal moment, held, with the server's verdict
)

// Kill is the death a killcam shows.
type Kill struct {
	// Tick is the kill event's tick, Body its body.
	Tick uint32
	Body protocol.Kill
	// VictimSlot is the victim's entity slot (the own player's, or the
	// followed player's for a spectator).
	VictimSlot uint16
	// Own says the victim is this client's player: where it drew itself
	// is in the reel (smooth.Reel.DrawnSelf). A spectator's "on yours" is
	// where the server had the victim at the kill's tick.
	Own bool
	// KillerName and VictimName are for the verdict's text ("you" for the
	// own player).
	KillerName, VictimName string
}

// Frame is what one frame of a killcam shows.
type Frame struct {
	Phase Phase
	// Tick is the server time the frame shows, in ticks (the killer's
	// present); View is what the killer's screen drew of the others then:
	// Tick less the kill's Behind.
	Tick, View float64
	// Progress is how far the replay is, 0 at its start, 1 at the blow.
	Progress float64
	// Killer is the killer's entity at Tick, if the reel holds it.
	Killer   smooth.Entity
	KillerOK bool
	// Victim is the victim's entity at View, as the killer's screen drew
	// it, if the reel holds it.
	Victim   smooth.Entity
	VictimOK bool
	// Judged is where the server judged the victim (the kill event's
	// position, dequantized), shown from the fatal moment on: "on their
	// screen". Own is where the victim was on its own screen at the kill's
	// tick (OwnOK: known): "on yours".
	Judged [2]float64
	Own    [2]float64
	OwnOK  bool
	// BehindMs is the kill's Behind in milliseconds.
	BehindMs float64
	// Title and Verdict are the killcam's two lines of text.
	Title, Verdict string
}

// Cam is a killcam: Start it with a death, then ask each frame for its
// Frame until it is Off. It is not safe for concurrent use.
type Cam struct {
	rate  float64
	reel  *smooth.Reel
	phase Phase
	kill  Kill
	since time.Time // when the current phase began
	start float64   // the replay's first tick
	ends  time.Time // when the verdict stops holding

	// The text, made once a phase.
	textPhase      Phase
	title, verdict string
}

// New returns a killcam replaying from reel, for a server of tickRate.
func New(tickRate float64, reel *smooth.Reel) *Cam {
	if !(tickRate > 0) {
		tickRate = protocol.DefaultTickRate
	}
	return &Cam{rate: tickRate, reel: reel}
}

// Start shows kill from now, in place of any killcam showing.
func (c *Cam) Start(now time.Time, k Kill) {
	c.kill, c.phase, c.since, c.textPhase = k, Waiting, now, Off
}

// Stop ends the killcam: skipped, or the victim respawned.
func (c *Cam) Stop() { c.phase = Off }

// Skips reports whether a frame's input skips a killcam: any key, mouse
// button or finger that went down, but F3, Esc and Tab (held for the
// scores), which stay the network overlay's, the pause menu's and the
// scoreboard's; and nothing while the player types a chat line.
func Skips(st *controls.State) bool {
	const kept = controls.KeyF3 | controls.KeyEscape
	return st.AnyPress && st.Pressed&kept == 0 && !st.Scoreboard && !st.Typing
}

// Saw tells the killcam of the victim's entity in a newly decoded tick:
// alive in a tick after the kill's, it has respawned, and the killcam
// ends (it never holds anything back).
func (c *Cam) Saw(tick uint32, alive bool) {
	if c.phase != Off && alive && int32(tick-c.kill.Tick) > 0 {
		c.phase = Off
	}
}

// Phase returns what the killcam shows now.
func (c *Cam) Phase() Phase { return c.phase }

// Kill returns the death the killcam shows (or showed last).
func (c *Cam) Kill() Kill { return c.kill }

// behind returns the kill's Behind in ticks.
func (c *Cam) behind() float64 { return float64(c.kill.Body.Behind) / 256 }

// play starts the replay at now: from ReplayTicks before the kill's tick,
// or as far back as the reel holds the ticks both the killer's present and
// its view need.
func (c *Cam) play(now time.Time) {
	tick := c.kill.Tick
	start := float64(tick) - ReplayTicks
	end := tick // the newest tick held up to the kill's
	if newest, ok := c.reel.Newest(); ok && int32(newest-tick) < 0 {
		end = newest
	}
	if oldest, ok := c.reel.Oldest(end); ok {
		start = max(start, float64(oldest)+math.Ceil(c.behind()))
	}
	c.start = min(start, float64(tick))
	c.phase, c.since = Replay, now
}

// Frame advances the killcam to now and returns what it shows, calling
// draw for every entity of the frame: the others as the killer's screen
// drew them (at View), the killer and the projectiles at Tick. It calls
// nothing while Off or Waiting.
func (c *Cam) Frame(now time.Time, draw func(id snapshot.EntityID, e smooth.Entity)) Frame {
	switch c.phase {
	case Off:
		return Frame{}
	case Waiting:
		if newest, ok := c.reel.Newest(); (ok && int32(newest-c.kill.Tick) >= 0) || now.Sub(c.since) >= Wait {
			c.play(now)
		} else {
			return Frame{Phase: Waiting}
		}
	}
	tick := float64(c.kill.Tick)
	f := Frame{Phase: c.phase, BehindMs: c.behind() / c.rate * 1000}
	if c.phase == Replay {
		f.Tick = c.start + now.Sub(c.since).Seconds()*c.rate
		if f.Tick >= tick {
			c.phase, c.since, c.ends = Verdict, now, now.Add(Hold)
			f.Phase = Verdict
		}
	}
	if c.phase == Verdict {
		if !now.Before(c.ends) {
			c.phase = Off
			return Frame{}
		}
		f.Tick = tick
	}
	f.View = f.Tick - c.behind()
	if span := tick - c.start; span > 0 {
		f.Progress = min(max((f.Tick-c.start)/span, 0), 1)
	} else {
		f.Progress = 1
	}
	k := &c.kill
	killer := int32(k.Body.By) - 1
	c.reel.SampleAt(f.View, func(id snapshot.EntityID, e smooth.Entity) {
		if int32(id.Index) == killer || e.Kind == protocol.KindProjectile {
			return
		}
		if id.Index == k.VictimSlot {
			f.Victim, f.VictimOK = e, true
		}
		draw(id, e)
	})
	c.reel.SampleAt(f.Tick, func(id snapshot.EntityID, e smooth.Entity) {
		if int32(id.Index) == killer {
			f.Killer, f.KillerOK = e, true
			draw(id, e)
		} else if e.Kind == protocol.KindProjectile {
			draw(id, e)
		}
	})
	f.Judged = [2]float64{protocol.PosQuant.Dequantize(uint32(k.Body.X)), protocol.PosQuant.Dequantize(uint32(k.Body.Y))}
	f.Own, f.OwnOK = c.ownAt(k.Tick)
	if c.textPhase != f.Phase {
		c.textPhase = f.Phase
		c.title, c.verdict = c.text(&f)
	}
	f.Title, f.Verdict = c.title, c.verdict
	return f
}

// ownAt returns where the victim was on its own screen at tick: where
// its client drew itself, or for a spectator where the server had it.
func (c *Cam) ownAt(tick uint32) ([2]float64, bool) {
	if c.kill.Own {
		x, y, ok := c.reel.DrawnSelf(tick)
		return [2]float64{x, y}, ok
	}
	var at [2]float64
	ok := false
	c.reel.SampleAt(float64(tick), func(id snapshot.EntityID, e smooth.Entity) {
		if id.Index == c.kill.VictimSlot && e.Kind == protocol.KindPlayer {
			at, ok = [2]float64{e.X, e.Y}, true
		}
	})
	return at, ok
}

// text returns the killcam's title and the server's verdict, in words.
func (c *Cam) text(f *Frame) (title, verdict string) {
	k := &c.kill
	killer := k.KillerName
	if killer == "" {
		killer = "a creature"
	}
	title = fmt.Sprintf("KILLCAM · %s killed %s · as %s saw it", killer, k.VictimName, killer)
	if k.Body.Killer == 0 {
		title = fmt.Sprintf("KILLCAM · a creature bit %s", k.VictimName)
	}
	j := k.Body.Judged
	switch {
	case k.Body.Killer == 0 && k.Own:
		verdict = "a bite is judged in the present, where the server had you"
	case k.Body.Killer == 0:
		verdict = "a bite is judged in the present, where the server had " + k.VictimName
	case j&protocol.JudgedRewound == 0 && k.Own:
		verdict = "judged in the present (no view claimed): the shot met you where the server had you"
	case j&protocol.JudgedRewound == 0:
		verdict = "judged in the present (no view claimed): the shot met " + k.VictimName + " where the server had them"
	case j&protocol.JudgedClamped != 0:
		verdict = fmt.Sprintf("hit judged at their view, cut to the rewind cap: %.0f ms behind the server", f.BehindMs)
	case j&protocol.JudgedBounded != 0:
		verdict = fmt.Sprintf("hit judged from the server's bound on their view: %.0f ms behind the server", f.BehindMs)
	default:
		verdict = fmt.Sprintf("hit judged at their view, %.0f ms behind the server", f.BehindMs)
	}
	if f.Phase == Verdict && f.OwnOK {
		d := math.Hypot(f.Own[0]-f.Judged[0], f.Own[1]-f.Judged[1])
		if k.Own {
			verdict += fmt.Sprintf(" · %.0f px from where you were on your screen", d)
		} else {
			verdict += fmt.Sprintf(" · %.0f px from where the server had %s", d, k.VictimName)
		}
	}
	return title, verdict
}
