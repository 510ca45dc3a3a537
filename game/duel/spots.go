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
// near the middle of a and b, the spot open and a projectile's way clear
// from the spot to the anchor. In the open (cover false) the anchor has no
// wall within StrafeRadius (and a margin) of it, and the way is clear to
// the edge of the strafer's circle all round. With cover, a wall stands in
// the strafer's circle: of eight points on its edge, two to five are out
// of the spot's sight, so that the strafer ducks behind it now and then.
// It looks ever farther from the middle; ok is false if nothing fits.
func pickSpots(m *arena.Map, rng *rand.Rand, a, b point, cover bool) (spot, anchor point, ok bool) {
	mid := point{(a.x + b.x) / 2, (a.y + b.y) / 2}
	for try := range 20000 {
		r := 32 + float64(try)/4
		ang := rng.Float64() * 2 * math.Pi
		anchor = point{mid.x + r*rng.Float64()*math.Cos(ang), mid.y + r*rng.Float64()*math.Sin(ang)}
		if cover {
			if m.Blocked(anchor.x, anchor.y, arena.PlayerRadius+24) {
				continue
			}
		} else if m.Blocked(anchor.x, anchor.y, StrafeRadius+arena.PlayerRadius+24) {
			continue
		}
		ang = rng.Float64() * 2 * math.Pi
		spot = point{anchor.x + Distance*math.Cos(ang), anchor.y + Distance*math.Sin(ang)}
		if m.Blocked(spot.x, spot.y, arena.PlayerRadius+8) || !m.Clear(spot.x, spot.y, anchor.x, anchor.y, arena.ProjectileRadius) {
			continue
		}
		hidden := 0
		for k := range 8 {
			s, c := math.Sincos(float64(k) * math.Pi / 4)
			if !m.Clear(spot.x, spot.y, anchor.x+StrafeRadius*c, anchor.y+StrafeRadius*s, arena.ProjectileRadius) {
				hidden++
			}
		}
		if (!cover && hidden == 0) || (cover && hidden >= 2 && hidden <= 5) {
			return spot, anchor, true
		}
	}
	return point{}, point{}, false
}
