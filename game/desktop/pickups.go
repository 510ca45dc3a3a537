package desktop

import (
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/game/arena"
)

// drawPickup draws one pickup whose centre is at screen (x, y): a health
// pack's sprite, a spread gun as an orange disc with a fan of three
// barrels, a power-up as a pulsing magenta disc with a ring. (Simple
// markers, to be replaced by sprites.)
func (g *Game) drawPickup(dst *ebiten.Image, p arena.Pickup, x, y float64, now time.Time) {
	switch p.Kind {
	case arena.PickupSpread:
		circle(dst, x, y, 10, fade(colSpread, 0.35))
		circle(dst, x, y, 6, colSpread)
		for _, a := range [3]float64{-arena.SpreadAngle * 2, 0, arena.SpreadAngle * 2} {
			line(dst, x, y, x+13*math.Cos(a), y+13*math.Sin(a), 2.5, colSpread)
		}
	case arena.PickupPower:
		pulse := 0.6 + 0.4*math.Sin(float64(now.UnixMilli())/150)
		circle(dst, x, y, 11, fade(colPower, 0.3*pulse))
		circle(dst, x, y, 7, colPower)
		ring(dst, x, y, 11, 1.5, fade(colPower, pulse))
	default:
		drawSprite(dst, g.sprites.pickup, x, y, 0, 1, nil)
	}
}
