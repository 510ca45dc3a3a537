package protocol

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Fill quantizes entities (in increasing slot order, as
// arena.World.AppendEntities lists them) into dst, a snapshot of Schema().
// It allocates nothing once dst has grown to them.
func Fill(dst *snapshot.Snapshot, ents []arena.Entity) {
	dst.Reset()
	for i := range ents {
		e := &ents[i]
		r := dst.AppendUnchecked(snapshot.EntityID{Index: e.Slot, Generation: uint16(e.Generation)})
		r[FieldX] = PosQuant.Quantize(e.X)
		r[FieldY] = PosQuant.Quantize(e.Y)
		r[FieldHeading] = HeadingQuant.Quantize(e.Heading)
		r[FieldKind] = kindValue(e.Kind)
		r[FieldState] = stateBits(e)
		r[FieldHealth] = uint32(min(max(e.Health, 0), maxHealth))
	}
}

const maxHealth = 1<<healthBits - 1

func kindValue(k arena.Kind) uint32 {
	switch k {
	case arena.KindCreature:
		return KindCreature
	case arena.KindProjectile:
		return KindProjectile
	}
	return KindPlayer
}

func stateBits(e *arena.Entity) uint32 {
	var s uint32
	if e.Walking {
		s |= StateWalking
	}
	if e.Dead {
		s |= StateDead
	}
	if e.Hurt {
		s |= StateHurt
	}
	if e.Shielded {
		s |= StateShielded
	}
	return s
}
