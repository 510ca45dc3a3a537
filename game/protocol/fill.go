package protocol

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Fill quantizes entities (in increasing slot order, as
// arena.World.AppendEntities lists them) into dst, a snapshot of Schema().
// It allocates nothing once dst has grown to them.
//
// A projectile's position on the wire is not its own but the point of its
// path in whole position units: its quantized spawn point plus, per tick
// flown, its heading's step rounded to whole units. That is within half a
// unit a tick of where it is (a shot of the gun ends within 3 px), and
// exactly where a receiver predicts it, so a projectile that flies on costs
// no bits.
func Fill(dst *snapshot.Snapshot, ents []arena.Entity) {
	dst.Reset()
	for i := range ents {
		e := &ents[i]
		r := dst.AppendUnchecked(snapshot.EntityID{Index: e.Slot, Generation: uint16(e.Generation)})
		r[FieldX] = PosQuant.Quantize(e.X)
		r[FieldY] = PosQuant.Quantize(e.Y)
		r[FieldHeading] = HeadingQuant.Quantize(e.Heading)
		if e.Kind == arena.KindProjectile {
			r[FieldX], r[FieldY] = shotPoint(e, r[FieldHeading])
		}
		r[FieldKind] = kindValue(e.Kind)
		r[FieldState] = stateBits(e)
		r[FieldHealth] = uint32(min(max(e.Health, 0), maxHealth))
	}
}

// shotPoint returns the wire position of projectile e, whose quantized
// heading is h: its quantized spawn point advanced e.Flown whole steps,
// held inside the field's range.
func shotPoint(e *arena.Entity, h uint32) (uint32, uint32) {
	return ShotPoint(PosQuant.Quantize(e.SpawnX), PosQuant.Quantize(e.SpawnY), h, e.Flown)
}

// ShotPoint returns the wire position of a projectile fired from the
// quantized point (x, y) with quantized heading h after it has flown n
// ticks: the point advanced n whole steps of [ShotStep], held inside the
// field's range. A client that predicts its own shots draws them on this
// path, so the server's copy of each continues it exactly.
func ShotPoint(x, y, h, n uint32) (uint32, uint32) {
	dx, dy := shotSteps.Units(h)
	px := int64(x) + int64(n)*int64(dx)
	py := int64(y) + int64(n)*int64(dy)
	top := int64(1)<<PosQuant.Bits() - 1
	return uint32(min(max(px, 0), top)), uint32(min(max(py, 0), top))
}

// ShotStep returns a projectile's step a tick with quantized heading h, in
// whole position units (1/UnitsPerPx px).
func ShotStep(h uint32) (dx, dy int32) { return shotSteps.Units(h) }

// shotSteps is a projectile's step a tick on the wire (newShotSteps); it
// is never modified.
var shotSteps = newShotSteps()

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
