package gen

import (
	"math"
	"math/rand/v2"

	"github.com/sightline-game/sightline/assets/sheet"
)

// The tiles' colours.
var (
	floorBase = hex(0x1a1f29)
	wallBase  = hex(0x4a5b7a)
	wallLight = hex(0x7d93ba)
	wallShade = hex(0x33405a)
	wallFace  = hex(0x283249)
)

// paintFloor draws the floor tiles: dark metal plates with a bevelled seam,
// a rivet in each corner and a faint grain; then a worn plate, a vented one
// and a cracked one.
func paintFloor() *canvas {
	const n = sheet.Tile
	c := newCanvas(n*sheet.FloorKinds, n)
	for kind := range sheet.FloorKinds {
		c.cell(kind, 0, n, n)
		rng := rand.New(rand.NewPCG(uint64(kind)+1, 77))
		plate(c, n, floorBase, 0.09, rng)
		switch kind {
		case 1: // worn: scratches
			for range 5 {
				x, y := 8+rng.Float64()*48, 8+rng.Float64()*48
				a := rng.Float64() * math.Pi
				l := 5 + rng.Float64()*10
				c.fill(capsule(x, y, x+math.Cos(a)*l, y+math.Sin(a)*l, 0.9), floorBase.times(1.45).with(0.7))
			}
		case 2: // a vent grille
			c.fill(roundBox(32, 32, 14, 11, 2, 0), floorBase.times(0.6))
			for i := range 5 {
				y := 24.0 + float64(i)*4
				c.fill(roundBox(32, y, 12, 1, 0.5, 0), floorBase.times(0.3))
				c.fill(roundBox(32, y+1.5, 12, 0.5, 0.2, 0), floorBase.times(1.35))
			}
		case 3: // a crack
			pts := []float64{14, 18}
			x, y := 14.0, 18.0
			for range 6 {
				x += 4 + rng.Float64()*4
				y += -2 + rng.Float64()*7
				pts = append(pts, x, y)
			}
			for i := 0; i+3 < len(pts); i += 2 {
				c.fill(capsule(pts[i], pts[i+1], pts[i+2], pts[i+3], 1.4), floorBase.times(0.45))
				c.fill(capsule(pts[i]+0.8, pts[i+1]+1, pts[i+2]+0.8, pts[i+3]+1, 0.6), floorBase.times(1.4).with(0.6))
			}
		}
	}
	return c
}

// plate paints a square metal plate of side n in colour base: a light
// top-left bevel, a dark bottom-right one, rivets in the corners and a
// grain of specks of strength grain.
func plate(c *canvas, n int, base rgba, grain float64, rng *rand.Rand) {
	f := float64(n)
	c.fill(roundBox(f/2, f/2, f/2, f/2, 0, 0), base)
	for y := range n {
		for x := range n {
			if rng.IntN(5) == 0 {
				c.pixel(x, y, base.times(1+grain*(rng.Float64()*2-1)))
			}
		}
	}
	c.fill(roundBox(f/2, 0.5, f/2, 0.5, 0, 0), base.times(0.7))   // seam
	c.fill(roundBox(0.5, f/2, 0.5, f/2, 0, 0), base.times(0.7))   // seam
	c.fill(roundBox(f/2, 1.5, f/2-1, 0.5, 0, 0), base.times(1.3)) // bevel, lit
	c.fill(roundBox(1.5, f/2, 0.5, f/2-1, 0, 0), base.times(1.3))
	c.fill(roundBox(f/2, f-0.5, f/2, 0.5, 0, 0), base.times(0.78)) // bevel, shaded
	c.fill(roundBox(f-0.5, f/2, 0.5, f/2, 0, 0), base.times(0.78))
	for _, p := range [][2]float64{{6, 6}, {f - 6, 6}, {6, f - 6}, {f - 6, f - 6}} {
		c.fill(disc(p[0]+0.6, p[1]+0.6, 1.8), base.times(0.55))
		c.fill(disc(p[0], p[1], 1.6), base.times(1.55))
	}
}

// paintWalls draws the 16 wall tiles, one per neighbour mask: a raised
// metal block whose sides facing open floor show a lit top bevel, a lit
// left edge, a shaded right edge and a dark front face.
func paintWalls() *canvas {
	const n = sheet.Tile
	const f = float64(n)
	c := newCanvas(n*sheet.WallCols, n*16/sheet.WallCols)
	for mask := range 16 {
		c.cell(mask%sheet.WallCols, mask/sheet.WallCols, n, n)
		rng := rand.New(rand.NewPCG(99, 1)) // the same grain on every tile: blocks join seamlessly
		c.fill(roundBox(f/2, f/2, f/2, f/2, 0, 0), wallBase)
		for y := range n {
			for x := range n {
				if rng.IntN(4) == 0 {
					c.pixel(x, y, wallBase.times(1+0.06*(rng.Float64()*2-1)))
				}
			}
		}
		// A recessed panel in the middle, riveted.
		c.fill(roundBox(f/2+0.7, f/2+0.7, 17, 17, 2, 0), wallLight.with(0.35))
		c.fill(roundBox(f/2, f/2, 17, 17, 2, 0), wallShade.with(0.8))
		c.fill(roundBox(f/2, f/2, 16, 16, 2, 0), wallBase.times(0.93))
		for _, p := range [][2]float64{{f/2 - 11, f/2 - 11}, {f/2 + 11, f/2 - 11}, {f/2 - 11, f/2 + 11}, {f/2 + 11, f/2 + 11}} {
			c.fill(disc(p[0], p[1], 1.7), wallLight)
			c.fill(disc(p[0]+0.5, p[1]+0.6, 1), wallShade)
		}
		open := func(bit int) bool { return mask&bit == 0 }
		if open(sheet.WallE) {
			c.shape(roundBox(f-3, f/2, 3, f/2, 0, 0), func(x, _ float64) rgba {
				return wallShade.mix(wallFace, clamp01((x-(f-6))/6))
			})
		}
		if open(sheet.WallW) {
			c.shape(roundBox(3, f/2, 3, f/2, 0, 0), func(x, _ float64) rgba {
				return wallLight.mix(wallBase, clamp01(x/6))
			})
		}
		if open(sheet.WallN) {
			c.shape(roundBox(f/2, 4, f/2, 4, 0, 0), func(_, y float64) rgba {
				return hex(0xa9bedf).mix(wallLight, clamp01(y/3)).mix(wallBase, clamp01((y-3)/5))
			})
		}
		if open(sheet.WallS) {
			// The block's front face, with a lit lip along its top.
			c.shape(roundBox(f/2, f-6, f/2, 6, 0, 0), func(_, y float64) rgba {
				return wallFace.mix(hex(0x1c2333), clamp01((y-(f-12))/12))
			})
			c.fill(roundBox(f/2, f-12, f/2, 0.8, 0, 0), wallLight.with(0.8))
			for x := 8.0; x < f; x += 16 {
				c.fill(roundBox(x, f-6, 0.5, 4, 0, 0), hex(0x151a26))
			}
		}
	}
	return c
}
