package protocol

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/events"
)

// AppendEvent appends the body of the arena's event e (see the body
// encodings in eventbodies.go) and returns its kind:
//
//	arena.EventHit        KindHit: Attacker is the shooter's player
//	                      id, or 0 for a creature's bite; Target the player
//	                      hit; Damage the health taken; Shot the
//	                      sequence of the input that fired (0: a bite).
//	arena.EventKill       KindKill: Killer is the player id whose
//	                      shot killed, or 0 for a creature; Victim the
//	                      player; Weapon is arena.WeaponGun, WeaponBite
//	                      or WeaponSpread.
//	arena.EventRoundOver  KindRoundOver: Round is its number (1 for
//	                      the first), Winner the player id with the highest
//	                      score, 0 if nobody scored.
//
// An event of another kind appends nothing and returns ok false.
func AppendEvent(dst []byte, e arena.Event) (body []byte, kind events.Kind, ok bool) {
	switch e.Kind {
	case arena.EventHit:
		h := e.Hit
		return AppendHit(dst, Hit{Attacker: uint32(h.Attacker), Target: uint32(h.Target), Damage: uint16(min(max(h.Damage, 0), 1<<16-1)), Shot: h.Shot}), KindHit, true
	case arena.EventKill:
		k := e.Kill
		return AppendKill(dst, Kill{Killer: uint32(k.Killer), Victim: uint32(k.Victim), Weapon: uint8(k.Weapon)}), KindKill, true
	case arena.EventRoundOver:
		r := e.RoundOver
		return AppendRoundOver(dst, RoundOver{Round: r.Round, Winner: uint32(r.Winner)}), KindRoundOver, true
	}
	return dst, 0, false
}
