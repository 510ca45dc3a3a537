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
	// DashTicks is how long a dash lasts: 0.2 s.
	DashTicks = TickRate / 5
	// DashSpeed is a dashing player's speed in px/s: 2.5 times PlayerSpeed,
	// so a dash covers DashTicks*DashSpeed*Dt = 110 px where walking covers
	// 44.
	DashSpeed = PlayerSpeed * 5 / 2
	// DashCooldown is the least number of ticks from the start of one dash
	// to the start of the next: 1.8 s. Only ticks the player is alive count;
	// dying ends a dash and its cooldown.
	DashCooldown = TickRate * 9 / 5
	// PlayerHealth is a fresh player's health.
	PlayerHealth = 100
	// RespawnTicks is how long a dead player waits.
	RespawnTicks = 3 * TickRate
	// SpawnShieldTicks is how long a player who just joined or respawned
	// takes no damage (StateShielded), unless it fires first: time to see
	// where it is before anything can kill it.
	SpawnShieldTicks = 2 * TickRate
	// SpawnCandidates is how many random open spots a spawn considers; the
	// player goes to the nearest of them that is at least SpawnDistance
	// from every other live player: beyond the 720 px a client sees
	// (protocol.ViewRadius), yet not far from the others.
	SpawnCandidates = 8
	SpawnDistance   = 1000

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

	// HurtTicks is how long an entity shows Hurt after a hit.
	HurtTicks = 6
	// CreatureRespawnTicks is how long a dead creature stays away.
	CreatureRespawnTicks = 5 * TickRate
	// CreatureBiteDamage is the health a creature's bite takes from a
	// player it touches; Hit and Kill events name attacker 0 for it.
	CreatureBiteDamage = 10
	// CreatureBiteInterval is the least number of ticks between two bites
	// of one creature.
	CreatureBiteInterval = TickRate

	// PickupRadius is a pickup's (health pack, spread gun, power-up)
	// pick-up radius in px.
	PickupRadius = 12
	// PickupHeal is the health a pack gives (up to PlayerHealth).
	PickupHeal = 30
	// PickupRespawnTicks is how long a taken health pack stays away.
	PickupRespawnTicks = 10 * TickRate

	// InputQueue bounds a player's queued inputs: one is consumed per tick,
	// and when more arrive the oldest is dropped.
	InputQueue = 8
	// SpareTicks is how long a player's queue must have held two spare
	// inputs, at every step, before it drops one (trimQueue): 2 s, far
	// longer than a jitter burst. A client that keeps its queue's depth by
	// timing (its input clock) is never trimmed.
	SpareTicks = 2 * TickRate
	// MaxInputAhead is how far past the newest sequence number seen an
	// input may claim to be (10 s: longer than any live connection's gap).
	MaxInputAhead = 10 * TickRate
	// ShotsInFlight is the most projectiles one player can have alive:
	// the gun's ProjectileTicks / FireInterval, rounded up (8), and one
	// spread shot's SpreadPellets (3: a pellet lives SpreadTicks, less
	// than SpreadFireInterval). A player's wait after a shot is the
	// interval of the weapon that fired it, so each weapon's own shots
	// keep their spacing whatever the player switches to.
	ShotsInFlight = (ProjectileTicks+FireInterval-1)/FireInterval +
		SpreadPellets*((SpreadTicks+SpreadFireInterval-1)/SpreadFireInterval)
)

// The spread gun: a weapon found as a pickup (PickupSpread) that fires a fan
// of pellets, a close-range burst where the gun is a steady long-range
// stream. Pellets are ordinary projectiles, as fast as the gun's.
const (
	// SpreadPellets is how many pellets one spread shot fires.
	SpreadPellets = 3
	// SpreadAngle is the angle between neighbouring pellets (10°): the fan
	// spans ±10° about the aim, so at 100 px the outer pellets fly 17 px
	// either side of the middle one (all three can hit one player), and at
	// 250 px 44 px (one can).
	SpreadAngle = 10 * math.Pi / 180
	// SpreadTicks is a pellet's lifetime, 11 ticks (0.37 s): a reach of
	// 257 px, where the gun's shot flies 1050 px.
	SpreadTicks = 11
	// SpreadDamage is a pellet's damage: 54 when all three hit, where the
	// gun's shot takes 20; two spread shots at point blank kill.
	SpreadDamage = 18
	// SpreadFireInterval is the least number of ticks after a spread shot
	// before the player fires again (0.4 s): 135 health a second at point
	// blank, where the gun deals 100.
	SpreadFireInterval = 12
	// SpreadShots is how many spread shots a spread gun pickup gives; then
	// the player has the gun again. Taking another refills it; dying and
	// the round's end take it away.
	SpreadShots = 20
	// SpreadRespawnTicks is how long a taken spread gun stays away.
	SpreadRespawnTicks = 20 * TickRate
)

// The power-up (PickupPower): double damage for a while.
const (
	// PowerTicks is how long a power-up lasts after it is taken: 10 s.
	// Taking another starts the time again (it does not add up); dying and
	// the round's end take it away.
	PowerTicks = 10 * TickRate
	// PowerFactor multiplies the damage of every projectile (gun shot or
	// pellet) fired while the power-up lasts. A projectile's damage is
	// fixed when it is fired. Bites are not players' and never doubled.
	PowerFactor = 2
	// PowerRespawnTicks is how long a taken power-up stays away.
	PowerRespawnTicks = 30 * TickRate
)

// Creatures roam like the bandwidth model's walkers (netcode/traffic): an
// idle creature starts a walk with CreatureStartChance per tick, a walking
// one stops with CreatureStopChance per tick (walks of about 0.45 s, as the
// model's 0.22 per tick at 10 Hz) and turns by up to CreatureTurn radians
// with CreatureTurnChance per tick. About 15 % of creatures walk at any time.
// A creature that walks into a wall slides along it, and picks a new
// heading when it barely moved.
const (
	CreatureStopChance  = 0.22 / 3
	CreatureStartChance = CreatureStopChance * 0.15 / 0.85
	CreatureTurnChance  = 0.28
	CreatureTurn        = 90 * math.Pi / 180 / TickRate // 90°/s at most
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
//
// Where a player ends a tick is on the position grid (Map.Snap).
func MovePlayer(m *Map, x, y, dx, dy float64) (float64, float64) {
	return m.Snap(m.Slide(x, y, dx*PlayerSpeed*Dt, dy*PlayerSpeed*Dt, PlayerRadius))
}
