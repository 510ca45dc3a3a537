package protocol

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/quant"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Entity kinds, as the kind field carries them.
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

// State bits, as the state field carries them.
const (
	StateWalking  = 1 << iota // creatures: walking; players: moving
	StateDead                 // players waiting to respawn
	StateHurt                 // took damage within the last few ticks
	StateShielded             // players: just spawned, takes no damage
)

// Quantizers of the replicated fields.
var (
	// PosQuant quantizes positions to 1/8 px: 16 bits over the world.
	PosQuant = quant.MustLinear(0, WorldSize, PosPrecision)
	// HeadingQuant quantizes headings and aim to 1024 steps a turn (0.35°).
	HeadingQuant = quant.MustAngle(10)
)

// IndexBits is the width of an entity's slot.
const IndexBits = 12

// MaxEntities bounds the entities of a snapshot: every slot of a world.
const MaxEntities = 1 << IndexBits

// healthBits is the width of the health field.
const healthBits = 7

// Schema returns the match's snapshot schema: the arena's entities (x, y at
// 1/8 px in a 4096 px world, a 10-bit heading, kind, state and health),
// with the game's residual codes and predictor.
func Schema() *snapshot.Schema {
	s := snapshot.MustSchema(IndexBits, arena.GenerationBits, MaxEntities,
		snapshot.Field{Name: "x", Bits: PosQuant.Bits()},
		snapshot.Field{Name: "y", Bits: PosQuant.Bits()},
		snapshot.Field{Name: "heading", Bits: HeadingQuant.Bits()},
		snapshot.Field{Name: "kind", Bits: 2},
		snapshot.Field{Name: "state", Bits: 4},
		snapshot.Field{Name: "health", Bits: healthBits},
	)
	for f, code := range fieldCodes() {
		s.Fields[f].Code = code
	}
	for f, code := range newCodes() {
		s.Fields[f].NewCode = code
	}
	for f, code := range spawnCodes() {
		s.Fields[f].SpawnCode = code
	}
	s.MaskCode = maskCode()
	s.Check = true
	pred := newPredictor()
	s.Predictor, s.Spawner = pred, pred
	s.Contexts = contextCodes()
	return s
}
