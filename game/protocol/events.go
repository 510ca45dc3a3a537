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
//	                      or WeaponSpread; Judged, Behind, X and Y
//	                      say how the blow was judged (KillOf).
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
		return AppendKill(dst, KillOf(e.Kill)), KindKill, true
	case arena.EventRoundOver:
		r := e.RoundOver
		return AppendRoundOver(dst, RoundOver{Round: r.Round, Winner: uint32(r.Winner)}), KindRoundOver, true
	}
	return dst, 0, false
}

// KillOf returns the body of the arena's kill k: the judged moment cut to
// MaxJudgedBehind, the judged position quantized as a snapshot's (and
// clamped to the world).
func KillOf(k arena.Kill) Kill {
	j := k.Judged
	var bits uint8
	if j.Rewound {
		bits |= JudgedRewound
	}
	if j.Bounded {
		bits |= JudgedBounded
	}
	if j.Clamped {
		bits |= JudgedClamped
	}
	return Kill{
		Killer: uint32(k.Killer), Victim: uint32(k.Victim), Weapon: uint8(k.Weapon),
		Judged: bits, Behind: uint16(min(j.Behind, MaxJudgedBehind)),
		X: uint16(PosQuant.Quantize(j.X)), Y: uint16(PosQuant.Quantize(j.Y)),
		By: uint32(min(max(j.By+1, 0), 1<<16)),
	}
}

// Arena returns the arena's kill that k is the body of (KillOf's
// inverse, up to the quantization of the judged position).
func (k Kill) Arena() arena.Kill {
	return arena.Kill{
		Killer: arena.PlayerID(k.Killer), Victim: arena.PlayerID(k.Victim), Weapon: arena.Weapon(k.Weapon),
		Judged: arena.Judged{
			Behind: uint32(k.Behind), X: PosQuant.Dequantize(uint32(k.X)), Y: PosQuant.Dequantize(uint32(k.Y)), By: int32(k.By) - 1,
			Rewound: k.Judged&JudgedRewound != 0, Bounded: k.Judged&JudgedBounded != 0, Clamped: k.Judged&JudgedClamped != 0,
		},
	}
}
