package desktop

import (
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/desktop/audio"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/sound"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// soundState connects the match to the sound effects: it feeds the Mixer
// of Config.Sound with what the game already takes in. Without a Sound
// every method does nothing.
type soundState struct {
	out *audio.Sound
	mix *sound.Mixer
	// dash mirrors the own player's dash from the inputs sent, to hear a
	// dash start the moment the player presses (as the prediction shows
	// it), not a round trip later.
	dash arena.Dash
	self bool // the Mixer knows the own player
}

// initSound starts following a new match.
func (g *Game) initSound(s *audio.Sound) {
	g.snd.out, g.snd.mix = s, s.Mixer()
	if g.snd.mix != nil {
		g.snd.mix.Reset()
		g.snd.mix.HideShots(g.shotHidden)
	}
}

// soundEvent passes a match event on.
func (g *Game) soundEvent(now time.Time, e events.Event) {
	if g.snd.mix != nil {
		g.snd.mix.Event(now, e)
	}
}

// soundSnapshot passes a newly taken-in snapshot on.
func (g *Game) soundSnapshot(now time.Time, tick uint32, s *snapshot.Snapshot) {
	if g.snd.mix != nil {
		g.snd.mix.Snapshot(now, tick, s)
	}
}

// soundRecords re-reads the records for the Mixer: pickups and the clock.
func (g *Game) soundRecords(now time.Time) {
	m := g.snd.mix
	if m == nil {
		return
	}
	m.BeginRecords()
	g.cl.Records(func(id uint32, gen uint16, payload []byte) {
		switch kind, index := protocol.RecordKind(id); kind {
		case protocol.RecordClock:
			if c, err := protocol.ParseClock(payload); err == nil {
				m.Clock(now, c.Round)
			}
		case protocol.RecordPickup:
			if p, err := protocol.ParsePickup(payload); err == nil {
				m.Pickup(now, index, gen, float64(p.X), float64(p.Y), p.Kind)
			}
		}
	})
	m.EndRecords(now)
}

// soundInput follows the own player's dash through one input sent.
func (g *Game) soundInput(now time.Time, in arena.Input) {
	if g.snd.mix == nil || g.m == nil {
		return
	}
	alive := g.self.ok && g.self.state&protocol.StateDead == 0
	dx, dy := arena.MoveIntent(in.MoveX, in.MoveY)
	_, started := g.snd.dash.Press(in.Buttons&arena.ButtonDash != 0, dx, dy, in.Aim, alive)
	g.snd.dash.Move(g.m, g.self.x, g.self.y, dx, dy)
	if started {
		g.snd.mix.Dash(now)
	}
}

// soundFrame places the listener on the own player and lets waiting events
// go: once per Update.
func (g *Game) soundFrame(now time.Time) {
	m := g.snd.mix
	if m == nil {
		return
	}
	if !g.snd.self {
		if id, ok := g.cl.Player(); ok {
			slot, _ := g.cl.Self()
			m.SetSelf(uint32(id), slot)
			g.snd.self = true
		}
	}
	if g.self.ok {
		m.Listen(g.self.x, g.self.y)
	}
	m.Update(now)
	g.snd.out.Warm()
}
