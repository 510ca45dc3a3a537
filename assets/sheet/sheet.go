// Package sheet is the layout of the game's sprite sheets and tile sets
// (assets/images): which image holds what, how big a frame is and where
// each frame sits. The generator (assets/gen) paints by it and the clients
// cut the images by it, so the two always agree. It holds constants only.
package sheet

// Every sheet is a grid of equal cells, read left to right, top to bottom:
// frame i of a sheet with Cols columns sits at column i%Cols, row i/Cols.
// A sprite's centre is its cell's centre unless said otherwise; sprites that
// turn (player, creature, bolt, flash) face +x at angle 0.

// player.png: a soldier seen from above, drawn in light greys so the game
// tints it with the player's colour. Frame 0 stands; frames 1..PlayerWalk
// are one stride, the feet alternating.
const (
	Player      = "player"
	PlayerCell  = 48
	PlayerWalk  = 8
	PlayerCols  = 1 + PlayerWalk
	PlayerIdle  = 0
	PlayerStep0 = 1 // the first walk frame
	// PlayerStride is how far (world px) the player moves over one whole
	// walk cycle.
	PlayerStride = 64.0
)

// creature.png: a beetle. Frames 0..CreatureWalk-1 walk (legs in two
// alternating tripods), CreatureHurt is its flash on being hit, then
// CreatureDeath frames of it collapsing and fading.
const (
	Creature       = "creature"
	CreatureCell   = 40
	CreatureWalk   = 6
	CreatureHurt   = CreatureWalk
	CreatureDie0   = CreatureHurt + 1
	CreatureDeath  = 5
	CreatureCols   = CreatureDie0 + CreatureDeath
	CreatureStride = 36.0 // world px per walk cycle
)

// bolt.png: projectiles flying +x, their bright core BoltCoreX px from the
// cell's left edge on its middle row, a trail behind: the gun's bolt, then
// the spread gun's pellet.
const (
	Bolt      = "bolt"
	BoltW     = 40
	BoltH     = 16
	BoltCoreX = 31
	BoltGun   = 0
	BoltShell = 1
	BoltCols  = 2
)

// flash.png: muzzle flash frames, bright to fading, firing +x from
// (FlashOriginX, FlashCell/2).
const (
	Flash        = "flash"
	FlashCell    = 32
	FlashOriginX = 6
	FlashFrames  = 3
)

// sparks.png: a projectile's impact, sparks flying apart and fading.
const (
	Sparks       = "sparks"
	SparksCell   = 24
	SparksFrames = 4
)

// burst.png: a creature's death, green drops flying apart and fading.
const (
	Burst       = "burst"
	BurstCell   = 48
	BurstFrames = 5
)

// pickups.png: one row per kind (by the pickup record's kind: health, the
// spread gun, double damage), PickupFrames frames of a glint passing over
// it.
const (
	Pickups      = "pickups"
	PickupCell   = 32
	PickupFrames = 4
	PickupKinds  = 3
	PickupHealth = 0
	PickupSpread = 1
	PickupPower  = 2
)

// marks.png: things drawn under, over or around bodies, all in cells of
// MarkCell: a soft shadow (PlayerRadius), a white ring (tinted: the own
// player's, a hurt flash), a shield bubble, a pickup's halo, a dead
// player's cross.
const (
	Marks      = "marks"
	MarkCell   = 48
	MarkShadow = 0
	MarkRing   = 1
	MarkShield = 2
	MarkHalo   = 3
	MarkCross  = 4
	MarkCols   = 5
)

// floor.png: FloorKinds floor tiles of Tile px: plain plates most often,
// then worn, vented and cracked ones.
const (
	Floor      = "floor"
	Tile       = 64
	FloorKinds = 4
)

// walls.png: a wall tile for each of the 16 ways its four neighbours can
// be wall or open: tile WallMask(n, e, s, w) shows a bevelled top edge
// (light) where the tile above is open, a lit left edge, a shaded right
// edge and a dark front face at the bottom, so walls read as raised blocks.
const (
	Walls    = "walls"
	WallCols = 4
)

// Neighbour bits of a wall tile's mask: set when that neighbour is wall.
const (
	WallN = 1 << iota
	WallE
	WallS
	WallW
)

// WallMask returns the tile index for a wall whose neighbours are (true)
// or are not walls.
func WallMask(n, e, s, w bool) int {
	m := 0
	if n {
		m |= WallN
	}
	if e {
		m |= WallE
	}
	if s {
		m |= WallS
	}
	if w {
		m |= WallW
	}
	return m
}
