package gen

import (
	"math"

	"github.com/sightline-game/sightline/assets/sheet"
)

// paintPlayer draws the soldier: standing, then a stride. It faces +x and
// is drawn in light greys (the game multiplies them by the player's
// colour); boots, gun and outlines stay dark whatever the tint.
func paintPlayer() *canvas {
	const n = sheet.PlayerCell
	c := newCanvas(n*sheet.PlayerCols, n)
	for f := range sheet.PlayerCols {
		c.cell(f, 0, n, n)
		swing := 0.0
		if f >= sheet.PlayerStep0 {
			swing = math.Sin(2 * math.Pi * float64(f-sheet.PlayerStep0) / sheet.PlayerWalk)
		}
		soldier(c, n/2, n/2, swing)
	}
	return c
}

// soldier draws one pose of the soldier centred at (cx, cy); swing (-1..1)
// says how far the left foot is forward (the right one is as far back).
func soldier(c *canvas, cx, cy, swing float64) {
	outline, boot, metal := grey(0.34), grey(0.3), grey(0.18)
	// Legs and boots, stepping out in front of and behind the body.
	for _, side := range []float64{-1, 1} {
		fx := cx - 2 + 11*swing*side
		fy := cy + side*7.5
		c.fill(capsule(cx-1, fy, fx, fy, 5.6), outline)
		c.shape(capsule(cx-1, fy, fx, fy, 4.2), lit(grey(0.62), cx-1, fy, 4, 0.8, 1.05))
		c.fill(ellipse(fx+1, fy, 5, 3.2, 0), outline)
		c.shape(ellipse(fx+1, fy, 4.2, 2.5, 0), lit(boot.times(1.2), fx+1, fy, 4, 0.7, 1.1))
	}
	turn := 0.1 * swing // the shoulders turn against the stride
	// Backpack.
	c.fill(roundBox(cx-7.5, cy, 4, 6.8, 2.2, turn), outline)
	c.shape(roundBox(cx-7.5, cy, 3.1, 5.9, 1.8, turn), lit(grey(0.66), cx-7.5, cy, 6, 0.8, 1.1))
	// Shoulders and chest.
	c.fill(ellipse(cx-1, cy, 7.4, 13.4, turn), outline)
	c.shape(ellipse(cx-1, cy, 6.4, 12.4, turn), lit(grey(1), cx-1, cy, 12, 0.66, 1))
	// Straps across the chest.
	c.fill(capsule(cx-4, cy-9, cx+3, cy+8, 1.4), grey(0.6).with(0.8))
	// Gun, held forward on the right.
	c.fill(roundBox(cx+12, cy+3, 10.5, 2.4, 1, 0), outline)
	c.fill(roundBox(cx+12, cy+3, 9.6, 1.6, 0.8, 0), metal)
	c.fill(roundBox(cx+13, cy+2.5, 8, 0.6, 0.3, 0), grey(0.42))
	// Arms reaching to it: the right hand on the grip, the left under the barrel.
	for _, arm := range [][4]float64{{cx, cy + 10.5, cx + 7, cy + 5.5}, {cx, cy - 10.5, cx + 13, cy + 1}} {
		c.fill(capsule(arm[0], arm[1], arm[2], arm[3], 5), outline)
		c.shape(capsule(arm[0], arm[1], arm[2], arm[3], 3.6), lit(grey(0.95), (arm[0]+arm[2])/2, (arm[1]+arm[3])/2, 5, 0.72, 1))
		c.fill(disc(arm[2], arm[3], 2.1), grey(0.55))
	}
	// Helmet, with a visor forward.
	c.fill(disc(cx, cy, 6.2), outline)
	c.shape(disc(cx, cy, 5.3), lit(grey(0.92), cx, cy, 6, 0.62, 1.05))
	c.fill(roundBox(cx, cy, 5.3, 0.7, 0.3, 0), grey(0.55).with(0.7)) // helmet ridge
	c.fill(ellipse(cx+4, cy, 1.5, 3.4, 0), grey(0.26))
	c.fill(disc(cx-2, cy-2.2, 1.3), grey(1).with(0.9))
}

// The beetle's colours.
var (
	beetle     = hex(0x8cc83c)
	beetleDark = hex(0x2e4612)
	beetleDead = hex(0x4a3a22)
)

// paintCreature draws the beetle walking, flashing when hurt, and dying.
func paintCreature() *canvas {
	const n = sheet.CreatureCell
	c := newCanvas(n*sheet.CreatureCols, n)
	for f := range sheet.CreatureWalk {
		c.cell(f, 0, n, n)
		beetleAt(c, n/2, n/2, math.Sin(2*math.Pi*float64(f)/sheet.CreatureWalk), 0, false)
	}
	c.cell(sheet.CreatureHurt, 0, n, n)
	beetleAt(c, n/2, n/2, 0, 0, true)
	for d := range sheet.CreatureDeath {
		c.cell(sheet.CreatureDie0+d, 0, n, n)
		beetleAt(c, n/2, n/2, 0, float64(d+1)/sheet.CreatureDeath, false)
	}
	return c
}

// beetleAt draws the beetle centred at (cx, cy) facing +x. swing (-1..1)
// moves its two tripods of legs; dead (0..1) curls the legs, flattens,
// browns and fades it; hurt paints it flashing white-hot.
func beetleAt(c *canvas, cx, cy, swing, dead float64, hurt bool) {
	fade := 1 - 0.7*dead*dead
	tone := func(k rgba) rgba {
		k = k.mix(beetleDead.times(k.r+k.g+k.b), 0.8*dead)
		if hurt {
			k = k.mix(rgba{1, 0.92, 0.85, 1}, 0.7)
		}
		return k.with(k.a * fade)
	}
	legC := tone(beetleDark)
	// Legs: three a side, in two tripods that swing against each other.
	for i, base := range []float64{-0.62, 0, 0.62} {
		for _, side := range []float64{-1, 1} {
			tripod := 1.0
			if (i%2 == 0) != (side < 0) {
				tripod = -1
			}
			a := side*(math.Pi/2+base) + side*0.38*swing*tripod
			a += side * dead * 1.1 * -math.Copysign(1, base+0.01) // curl in
			reach := 1 - 0.5*dead
			hx, hy := cx-1+float64(i-1)*-5, cy+side*4
			kx, ky := hx+math.Cos(a)*9*reach, hy+math.Sin(a)*9*reach
			b := a + side*0.7
			fx, fy := kx+math.Cos(b)*6*reach, ky+math.Sin(b)*6*reach
			c.fill(capsule(hx, hy, kx, ky, 2.4), legC)
			c.fill(capsule(kx, ky, fx, fy, 1.7), legC)
		}
	}
	flat := 1 - 0.25*dead
	// Antennae and mandibles.
	for _, side := range []float64{-1, 1} {
		c.fill(capsule(cx+11, cy+side*2, cx+16, cy+side*7*flat, 1.1), legC)
		c.fill(capsule(cx+12, cy+side*1.6, cx+15.5, cy+side*0.6, 1.6), legC)
	}
	// Abdomen (wing cases), pronotum, head.
	c.fill(ellipse(cx-3, cy, 10.6, 9.6*flat, 0), tone(beetleDark))
	c.shape(ellipse(cx-3, cy, 9.6, 8.6*flat, 0), func(x, y float64) rgba {
		return tone(lit(beetle, cx-3, cy, 9, 0.62, 1.18)(x, y))
	})
	c.fill(capsule(cx-12, cy, cx+5, cy, 1), tone(beetleDark.with(0.8)))
	for _, s := range [][3]float64{{-7, -4, 1.6}, {-2, 4.5, 1.3}, {-8, 4, 1.1}, {0, -4.5, 1.2}} {
		c.fill(disc(cx+s[0], cy+s[1]*flat, s[2]), tone(beetle.times(0.62)))
	}
	c.fill(ellipse(cx+6.5, cy, 4.8, 6.8*flat, 0), tone(beetleDark))
	c.shape(ellipse(cx+6.5, cy, 4, 6*flat, 0), func(x, y float64) rgba {
		return tone(lit(beetle.times(0.82), cx+6.5, cy, 5, 0.65, 1.1)(x, y))
	})
	c.fill(disc(cx+11, cy, 3.6*flat), tone(beetleDark.times(1.3)))
	if dead < 0.5 {
		for _, side := range []float64{-1, 1} {
			c.fill(disc(cx+11.6, cy+side*2.3, 1.5), tone(hex(0xf4f4e8)))
			c.fill(disc(cx+12.2, cy+side*2.3, 0.8), tone(hex(0x101010)))
		}
	}
	// A shine on the wing cases.
	c.fill(ellipse(cx-6, cy-4*flat, 4.2, 1.8, -0.35), rgba{1, 1, 1, 0.35 * fade})
}
