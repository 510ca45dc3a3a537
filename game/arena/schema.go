package arena

import (
	"github.com/sightline-game/sightline/netcode/quant"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Entity kinds, as the Kind field carries them.
const (
	KindPlayer = iota
	KindCreature
	KindProjectile
)

// Fields of an entity in a snapshot, in schema order.
const (
	FieldX = iota
	FieldY
	FieldHeading
	FieldKind
	FieldState
	FieldHealth
)

// State bits.
const (
	StateWalking  = 1 << iota // creatures: walking; players: moving
	StateDead                 // players waiting to respawn
	StateHurt                 // took damage within the last few ticks
	StateShielded             // players: just spawned, takes no damage (SpawnShieldTicks)
)

// Quantizers of the replicated fields.
var (
	// PosQuant quantizes positions to 1/8 px: 16 bits over the world.
	PosQuant = quant.MustLinear(0, WorldSize, 0.125)
	// HeadingQuant quantizes headings and aim to 1024 steps a turn (0.35°).
	HeadingQuant = quant.MustAngle(10)
)

// MaxEntities bounds the entities of a snapshot: creatures, players and projectiles.
const MaxEntities = 1 << IndexBits

// IndexBits is the width of an entity's slot.
const IndexBits = 12

// Schema returns the snapshot schema of the arena.
func Schema() *snapshot.Schema {
	return snapshot.MustSchema(IndexBits, 4, MaxEntities,
		snapshot.Field{Name: "x", Bits: PosQuant.Bits()},
		snapshot.Field{Name: "y", Bits: PosQuant.Bits()},
		snapshot.Field{Name: "heading", Bits: HeadingQuant.Bits()},
		snapshot.Field{Name: "kind", Bits: 2},
		snapshot.Field{Name: "state", Bits: 4},
		snapshot.Field{Name: "health", Bits: 7},
	)
}
