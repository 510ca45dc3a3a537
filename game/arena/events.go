package arena

import "github.com/sightline-game/sightline/netcode/events"

// MaxPendingEvents bounds the events kept between two TakeEvents calls;
// beyond it new ones are dropped and counted (Stats.EventsDropped).
const MaxPendingEvents = 4096

// eventBuf holds the happenings since the last TakeEvents: kinds, and
// their bodies back to back.
type eventBuf struct {
	kinds []events.Kind
	ends  []int32 // end of each body in body
	body  []byte
}

func (b *eventBuf) init() {
	b.kinds = make([]events.Kind, 0, 256)
	b.ends = make([]int32, 0, 256)
	b.body = make([]byte, 0, 4096)
}

func (b *eventBuf) full() bool { return len(b.kinds) >= MaxPendingEvents }

func (b *eventBuf) commit(k events.Kind) {
	b.kinds = append(b.kinds, k)
	b.ends = append(b.ends, int32(len(b.body)))
}

func (w *World) emitHit(attacker, target PlayerID, damage int) {
	if w.events.full() {
		w.stats.EventsDropped++
		return
	}
	w.events.body = events.AppendHit(w.events.body, events.Hit{Attacker: uint32(attacker), Target: uint32(target), Damage: uint16(damage)})
	w.events.commit(events.KindHit)
}

func (w *World) emitKill(killer, victim PlayerID, weapon uint8) {
	if w.events.full() {
		w.stats.EventsDropped++
		return
	}
	w.events.body = events.AppendKill(w.events.body, events.Kill{Killer: uint32(killer), Victim: uint32(victim), Weapon: weapon})
	w.events.commit(events.KindKill)
}

func (w *World) emitRoundOver(round uint32, winner PlayerID) {
	if w.events.full() {
		w.stats.EventsDropped++
		return
	}
	w.events.body = events.AppendRoundOver(w.events.body, events.RoundOver{Round: round, Winner: uint32(winner)})
	w.events.commit(events.KindRoundOver)
}

// TakeEvents calls fn, in order, for every happening since the previous
// call, then forgets them. body is valid only during fn: copy it to keep it.
// Bodies are the events package's (AppendHit, AppendKill, AppendRoundOver):
//
//	KindHit        a player took damage: Attacker is the shooter's player id,
//	               or 0 for a creature's bite; Target is the player hit;
//	               Damage the health taken. Hits on creatures are not
//	               reported (creatures have no player id; the snapshot's
//	               StateHurt shows them).
//	KindKill       a player died: Killer is the player id whose shot killed,
//	               or 0 for a creature; Victim the player; Weapon is
//	               WeaponGun or WeaponBite. Creature deaths are not events:
//	               they show as removals in the snapshot and as score in
//	               the shooter's record.
//	KindRoundOver  the round ended: Round is its number (1 for the first),
//	               Winner the player id with the highest score, 0 if nobody
//	               scored.
func (w *World) TakeEvents(fn func(kind events.Kind, body []byte)) {
	b := &w.events
	start := int32(0)
	for i, k := range b.kinds {
		fn(k, b.body[start:b.ends[i]:b.ends[i]])
		start = b.ends[i]
	}
	b.kinds, b.ends, b.body = b.kinds[:0], b.ends[:0], b.body[:0]
}
