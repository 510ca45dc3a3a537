package arena

import "math"

// The world's dimensions and the game's numbers.
const (
	// WorldSize is the side of the square arena in px.
	WorldSize = 4096
	// Tile is the side of a map tile in px; walls are whole tiles.
	Tile = 64
	// Tiles is the number of tiles per side.
	Tiles = WorldSize / Tile

	// TickRate is the simulation rate in Hz.
	TickRate = 30
	// Dt is one tick in seconds.
	Dt = 1.0 / TickRate

	// PlayerRadius is a player's collision radius in px.
	PlayerRadius = 14
	// PlayerSpeed is a player's top speed in px/s.
	PlayerSpeed = 220
	// PlayerHealth is a fresh player's health.
	PlayerHealth = 100
	// RespawnTicks is how long a dead player waits.
	RespawnTicks = 3 * TickRate

	// FireInterval is the least number of ticks between two shots.
	FireInterval = 6
	// ProjectileSpeed is a projectile's speed in px/s.
	ProjectileSpeed = 700
	// ProjectileTicks is a projectile's lifetime.
	ProjectileTicks = TickRate * 3 / 2
	// ProjectileRadius is a projectile's collision radius in px.
	ProjectileRadius = 4
	// ProjectileDamage is the health a hit takes.
	ProjectileDamage = 20

	// CreatureRadius is a creature's collision radius in px.
	CreatureRadius = 12
	// CreatureSpeed is a walking creature's speed in px/s.
	CreatureSpeed = 60
	// CreatureHealth is a creature's health.
	CreatureHealth = 40
)

// MoveIntent turns an input's stick (-127..127 each way) into a velocity
// direction of length at most 1: a longer claim is scaled down, never trusted.
func MoveIntent(mx, my int8) (float64, float64) {
	x, y := float64(max(mx, -127))/127, float64(max(my, -127))/127
	if l := math.Hypot(x, y); l > 1 {
		x, y = x/l, y/l
	}
	return x, y
}

// MovePlayer moves a player at (x, y) for one tick along the direction
// (dx, dy) (length at most 1) and resolves collisions with the map's walls
// and edges. Server and predicting client both call it.
func MovePlayer(m *Map, x, y, dx, dy float64) (float64, float64) {
	return m.Slide(x, y, dx*PlayerSpeed*Dt, dy*PlayerSpeed*Dt, PlayerRadius)
}
