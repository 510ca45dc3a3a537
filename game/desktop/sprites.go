package desktop

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/sightline-game/sightline/game/arena"
)

// Sprites are the entities' shapes, drawn once with antialiasing into small
// images and then drawn each frame as images (rotated, tinted). Drawing
// antialiased vector shapes every frame would flush the GPU batch at every
// shape: with software GL that is the difference between 60 fps and 6.
type sprites struct {
	creature [2]*ebiten.Image // two leg poses, facing +x
	shadow   *ebiten.Image    // a soft dark disc of PlayerRadius
	shot     *ebiten.Image    // glow, trail and core, flying towards +x
	pickup   *ebiten.Image    // a health pack
	selfRing *ebiten.Image
	hurtRing *ebiten.Image
	shield   *ebiten.Image                // a just-spawned player's bubble
	bodies   map[color.RGBA]*ebiten.Image // player bodies by color
	guns     map[color.RGBA]*ebiten.Image // player guns by color, pointing +x
}

// Sprite geometry: every sprite is square with its centre at half its size.
const (
	creatureSprite = 48
	playerSprite   = 40
	gunSprite      = 72
	shotSpriteW    = 48
	shotSpriteH    = 20
	ringSprite     = 44
	pickupSprite   = 40
)

func aaCircle(dst *ebiten.Image, x, y, r float64, c color.Color) {
	vector.DrawFilledCircle(dst, float32(x), float32(y), float32(r), c, true)
}

func aaLine(dst *ebiten.Image, x0, y0, x1, y1, w float64, c color.Color) {
	vector.StrokeLine(dst, float32(x0), float32(y0), float32(x1), float32(y1), float32(w), c, true)
}

func newSprites() *sprites {
	s := &sprites{bodies: map[color.RGBA]*ebiten.Image{}, guns: map[color.RGBA]*ebiten.Image{}}
	for pose := range s.creature {
		s.creature[pose] = creatureImage(pose)
	}
	s.shadow = ebiten.NewImage(playerSprite, playerSprite)
	aaCircle(s.shadow, playerSprite/2, playerSprite/2, arena.PlayerRadius, colShadow)

	s.shot = ebiten.NewImage(shotSpriteW, shotSpriteH)
	cx, cy := float64(shotSpriteW-10), float64(shotSpriteH/2)
	for i := range 4 { // a trail that fades out behind
		x0 := cx - 6 - float64(i+1)*6
		aaLine(s.shot, x0, cy, x0+6, cy, 3-float64(i)*0.5, fade(colShotGlow, 0.8-float64(i)*0.18))
	}
	aaCircle(s.shot, cx, cy, 7, colShotGlow)
	aaCircle(s.shot, cx, cy, arena.ProjectileRadius, colShot)

	s.pickup = ebiten.NewImage(pickupSprite, pickupSprite)
	p := float64(pickupSprite / 2)
	aaCircle(s.pickup, p, p, 17, fade(colPickup, 0.2))
	vector.DrawFilledRect(s.pickup, float32(p-10), float32(p-10), 20, 20, color.RGBA{0xf4, 0xf4, 0xf4, 0xff}, true)
	vector.DrawFilledRect(s.pickup, float32(p-3), float32(p-7), 6, 14, colPickup, false)
	vector.DrawFilledRect(s.pickup, float32(p-7), float32(p-3), 14, 6, colPickup, false)

	s.selfRing = ebiten.NewImage(ringSprite, ringSprite)
	vector.StrokeCircle(s.selfRing, ringSprite/2, ringSprite/2, arena.PlayerRadius+4, 2, colSelfRing, true)
	s.shield = ebiten.NewImage(ringSprite, ringSprite)
	aaCircle(s.shield, ringSprite/2, ringSprite/2, arena.PlayerRadius+6, fade(colShield, 0.18))
	vector.StrokeCircle(s.shield, ringSprite/2, ringSprite/2, arena.PlayerRadius+6, 2, colShield, true)
	s.hurtRing = ebiten.NewImage(ringSprite, ringSprite)
	vector.StrokeCircle(s.hurtRing, ringSprite/2, ringSprite/2, arena.PlayerRadius+1, 3, colBad, true)
	return s
}

// creatureImage draws a creature facing +x: a green beetle with three legs a
// side (pose 0 or 1 moves them) and two eyes.
func creatureImage(pose int) *ebiten.Image {
	const r = arena.CreatureRadius
	img := ebiten.NewImage(creatureSprite, creatureSprite)
	c := float64(creatureSprite / 2)
	wig := 0.22
	if pose == 1 {
		wig = -wig
	}
	for k := -1; k <= 1; k++ {
		for _, side := range []float64{-1, 1} {
			w := wig * float64(1-2*((k+1)%2)) // alternate legs
			a := side * (math.Pi/2 + float64(k)*0.55 + w)
			aaLine(img, c+math.Cos(a)*(r-3), c+math.Sin(a)*(r-3), c+math.Cos(a)*(r+5), c+math.Sin(a)*(r+5), 2, colCreatureDk)
		}
	}
	aaCircle(img, c, c, r, colCreatureDk)
	aaCircle(img, c, c, r-2, colCreature)
	aaCircle(img, c-3, c, r-7, shade(colCreature, 1.15))
	for _, side := range []float64{-0.5, 0.5} {
		ex, ey := c+math.Cos(side)*r*0.55, c+math.Sin(side)*r*0.55
		aaCircle(img, ex, ey, 3, color.RGBA{0xf4, 0xf4, 0xe8, 0xff})
		aaCircle(img, ex+1.2, ey, 1.5, color.RGBA{0x10, 0x10, 0x10, 0xff})
	}
	return img
}

// body returns the round body of a player of color c, lit from the top left.
func (s *sprites) body(c color.RGBA) *ebiten.Image {
	if img, ok := s.bodies[c]; ok {
		return img
	}
	const r = arena.PlayerRadius
	img := ebiten.NewImage(playerSprite, playerSprite)
	m := float64(playerSprite / 2)
	aaCircle(img, m, m, r, shade(c, 0.55))
	aaCircle(img, m, m, r-2.5, c)
	aaCircle(img, m-4, m-4, 4, fade(color.RGBA{0xff, 0xff, 0xff, 0xff}, 0.35))
	s.bodies[c] = img
	return img
}

// gun returns the gun of a player of color c, pointing +x from the centre.
func (s *sprites) gun(c color.RGBA) *ebiten.Image {
	if img, ok := s.guns[c]; ok {
		return img
	}
	const r = arena.PlayerRadius
	img := ebiten.NewImage(gunSprite, gunSprite)
	m := float64(gunSprite / 2)
	aaLine(img, m+r-4, m, m+r+12, m, 6, shade(c, 0.45))
	aaLine(img, m+r-4, m, m+r+11, m, 3, shade(c, 1.25))
	s.guns[c] = img
	return img
}

// drawSprite draws img centred at screen (x, y), turned by angle, with an
// optional color scale (nil: as is) and opacity.
func drawSprite(dst, img *ebiten.Image, x, y, angle, alpha float64, tint *ebiten.ColorScale) {
	b := img.Bounds()
	op := &ebiten.DrawImageOptions{Filter: ebiten.FilterLinear}
	op.GeoM.Translate(-float64(b.Dx())/2, -float64(b.Dy())/2)
	if angle != 0 {
		op.GeoM.Rotate(angle)
	}
	op.GeoM.Translate(x, y)
	if tint != nil {
		op.ColorScale = *tint
	}
	if alpha < 1 {
		op.ColorScale.ScaleAlpha(float32(alpha))
	}
	dst.DrawImage(img, op)
}
