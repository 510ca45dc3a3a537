package duel

import (
	"math"
	"math/rand/v2"

	"github.com/sightline-game/sightline/game/arena"
)

// The duel's geometry.
const (
	// Distance is how far apart the aimer's spot and the strafer's anchor are.
	Distance = 300
	// StrafeRadius is how far from its anchor the strafer roams.
	StrafeRadius = 120
	// MinRange and MaxRange bound the distance, as the aimer draws it, at
	// which a shot counts.
	MinRange, MaxRange = 200, 400
)

// pickSpots returns an aimer's spot and a strafer's anchor Distance apart
// near the middle of a and b: the anchor with no wall within StrafeRadius
// (and a margin) of it, the spot open, and a projectile's way clear from
// the spot to the anchor and to the edge of the strafer's circle all round.
// It looks ever farther from the middle; ok is false if nothing fits.
func pickSpots(m *arena.Map, rng *rand.Rand, a, b point) (spot, anchor point, ok bool) {
	mid := point{(a.x + b.x) / 2, (a.y + b.y) / 2}
	for try := range 20000 {
		r := 32 + float64(try)/4
		ang := rng.Float64() * 2 * math.Pi
		anchor = point{mid.x + r*rng.Float64()*math.Cos(ang), mid.y + r*rng.Float64()*math.Sin(ang)}
		if m.Blocked(anchor.x, anchor.y, StrafeRadius+arena.PlayerRadius+24) {
			continue
		}
		ang = rng.Float64() * 2 * math.Pi
		spot = point{anchor.x + Distance*math.Cos(ang), anchor.y + Distance*math.Sin(ang)}
		if m.Blocked(spot.x, spot.y, arena.PlayerRadius+8) || !m.Clear(spot.x, spot.y, anchor.x, anchor.y, arena.ProjectileRadius) {
			continue
		}
		clear := true
		for k := range 8 {
			s, c := math.Sincos(float64(k) * math.Pi / 4)
			if !m.Clear(spot.x, spot.y, anchor.x+StrafeRadius*c, anchor.y+StrafeRadius*s, arena.ProjectileRadius) {
				clear = false
				break
			}
		}
		if clear {
			return spot, anchor, true
		}
	}
	return point{}, point{}, false
}
