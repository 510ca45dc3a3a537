package sound

import (
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/events"
)

// eventWait is how long a Hit or Kill event on another player waits for a
// snapshot that shows where it happened, in wall time.
const eventWait = 250 * time.Millisecond

// fallbackGain is the gain of the own hits and kills whose target was never
// seen: heard centred, softer than a placed one.
const fallbackGain = 0.5

// pendingEvent is a Hit or Kill event on another player, waiting to be
// placed on a mark.
type pendingEvent struct {
	sound Sound // Hit or Death
	tick  uint32
	dmg   int
	byMe  bool // the own player's shot
	at    time.Time
	live  bool
}

// eventState holds the events waiting for a position.
type eventState struct {
	me      uint32
	haveMe  bool
	pending [32]pendingEvent
	next    int
}

// Event takes one of the match's events, as the client delivers them:
// Hit plays hurt (the own player) or hit (another, once a snapshot shows
// where); Kill plays death; RoundOver plays round_end. Other kinds and
// malformed bodies play nothing.
func (m *Mixer) Event(now time.Time, e events.Event) {
	ev := &m.events
	switch e.Kind {
	case protocol.KindHit:
		h, err := protocol.ParseHit(e.Body)
		if err != nil {
			return
		}
		if ev.haveMe && h.Target == ev.me {
			m.playCentred(now, Hurt, 1)
			return
		}
		ev.add(pendingEvent{sound: Hit, tick: e.Tick, dmg: int(h.Damage), byMe: ev.haveMe && h.Attacker == ev.me, at: now})
	case protocol.KindKill:
		k, err := protocol.ParseKill(e.Body)
		if err != nil {
			return
		}
		if ev.haveMe && k.Victim == ev.me {
			m.playCentred(now, Death, 1)
			return
		}
		ev.add(pendingEvent{sound: Death, tick: e.Tick, byMe: ev.haveMe && k.Killer == ev.me, at: now})
	case protocol.KindRoundOver:
		if _, err := protocol.ParseRoundOver(e.Body); err == nil {
			m.playCentred(now, RoundEnd, 1)
		}
		return
	default:
		return
	}
	m.resolve(now)
}

// Update lets events that waited too long for a position go (the own
// player's hits and kills are then heard centred, softly; others not at
// all). Call it once a frame.
func (m *Mixer) Update(now time.Time) {
	m.resolve(now)
	m.expire(now)
}

// add queues an event, overwriting the oldest when full.
func (ev *eventState) add(p pendingEvent) {
	p.live = true
	ev.pending[ev.next] = p
	ev.next = (ev.next + 1) % len(ev.pending)
}

// resolve plays every waiting event a snapshot has placed, and gives up on
// those that waited too long.
func (m *Mixer) resolve(now time.Time) {
	ev, w := &m.events, &m.world
	for i := range ev.pending {
		p := &ev.pending[i]
		if !p.live {
			continue
		}
		if k := w.match(p); k != nil {
			k.live, p.live = false, false
			m.playAt(now, p.sound, k.x, k.y, 1)
			continue
		}
		seenPast := w.count > 0 && int32(w.tick-p.tick) > markTicks
		if seenPast || now.Sub(p.at) >= eventWait {
			p.live = false
			if p.byMe {
				m.playCentred(now, p.sound, fallbackGain)
			}
		}
	}
}

// match finds the unused mark that shows event p: a fall for a death; for
// a hit, a wound of the same damage (or less, when it emptied the health),
// else any wound, within markTicks of the event's tick.
func (w *worldState) match(p *pendingEvent) *mark {
	var any *mark
	for i := range w.marks {
		k := &w.marks[i]
		d := int32(k.tick - p.tick)
		if !k.live || d > markTicks || d < -markTicks || k.fall != (p.sound == Death) {
			continue
		}
		if p.sound == Death || k.drop == p.dmg || (k.zero && k.drop <= p.dmg) {
			return k
		}
		if any == nil {
			any = k
		}
	}
	return any
}
