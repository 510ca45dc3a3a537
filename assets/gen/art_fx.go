package gen

import (
	"math"
	"math/rand/v2"

	"github.com/sightline-game/sightline/assets/sheet"
)

// paintBolts draws the projectiles flying +x: the gun's yellow bolt with a
// long trail, the spread gun's smaller orange pellet with a short one.
func paintBolts() *canvas {
	c := newCanvas(sheet.BoltW*sheet.BoltCols, sheet.BoltH)
	const x, y = sheet.BoltCoreX, sheet.BoltH / 2
	for _, b := range []struct {
		cell          int
		glow, core    rgba
		r, trail, fat float64
	}{
		{sheet.BoltGun, hex(0xffb31a), hex(0xfff4b0), 3.3, 27, 2.6},
		{sheet.BoltShell, hex(0xff7a2a), hex(0xffd9a0), 2.6, 15, 2},
	} {
		c.cell(b.cell, 0, sheet.BoltW, sheet.BoltH)
		tail := x - b.trail
		c.shape(polygon(x, y-b.fat, x, y+b.fat, tail, y), func(px, _ float64) rgba {
			return b.glow.with(0.85 * clamp01((px-tail)/b.trail))
		})
		c.glow(x, y, b.r*2.6, 1.4, b.glow.with(0.9))
		c.fill(disc(x, y, b.r), b.core)
		c.fill(disc(x+0.4, y, b.r*0.5), grey(1))
	}
	return c
}

// paintFlash draws the muzzle flash: a star of fire firing +x, shrinking
// and fading over its frames.
func paintFlash() *canvas {
	const n = sheet.FlashCell
	c := newCanvas(n*sheet.FlashFrames, n)
	ox, oy := float64(sheet.FlashOriginX), float64(n/2)
	for f := range sheet.FlashFrames {
		c.cell(f, 0, n, n)
		s := 1 - 0.28*float64(f)
		a := 1 - 0.3*float64(f)
		c.glow(ox+6*s, oy, 13*s, 1.6, hex(0xffb31a).with(0.75*a))
		cone := polygon(
			ox, oy-1.5, ox+7*s, oy-4*s, ox+12*s, oy-8*s, ox+13*s, oy-3.5*s, ox+24*s, oy,
			ox+13*s, oy+3.5*s, ox+12*s, oy+8*s, ox+7*s, oy+4*s, ox, oy+1.5)
		c.fill(cone, hex(0xffc23a).with(a))
		c.fill(ellipse(ox+9*s, oy, 8*s, 2.6*s, 0), hex(0xfffbe0).with(a))
	}
	return c
}

// paintSparks draws a projectile's impact: sparks flying apart from the
// middle, cooling from yellow to orange and fading.
func paintSparks() *canvas {
	const n = sheet.SparksCell
	c := newCanvas(n*sheet.SparksFrames, n)
	rng := rand.New(rand.NewPCG(11, 3))
	type spark struct{ a, v float64 }
	sparks := make([]spark, 8)
	for i := range sparks {
		sparks[i] = spark{2*math.Pi*float64(i)/8 + rng.Float64()*0.6, 0.7 + 0.5*rng.Float64()}
	}
	for f := range sheet.SparksFrames {
		c.cell(f, 0, n, n)
		t := (float64(f) + 0.5) / sheet.SparksFrames
		m := float64(n / 2)
		if f < 2 {
			c.glow(m, m, 8*(1-t), 1.5, hex(0xfff4b0).with(0.9))
		}
		col := hex(0xfff1a0).mix(hex(0xff6a1a), t).with(1 - 0.75*t)
		for _, s := range sparks {
			d := (2 + 9*t) * s.v
			l := 3.5 * (1 - t*0.7)
			x0, y0 := m+math.Cos(s.a)*d, m+math.Sin(s.a)*d
			c.fill(capsule(x0, y0, x0+math.Cos(s.a)*l, y0+math.Sin(s.a)*l, 1.6-0.6*t), col)
		}
	}
	return c
}

// paintBurst draws a creature's death: drops of green flying apart and
// fading around a spreading splat.
func paintBurst() *canvas {
	const n = sheet.BurstCell
	c := newCanvas(n*sheet.BurstFrames, n)
	rng := rand.New(rand.NewPCG(5, 8))
	type drop struct{ a, v, r float64 }
	drops := make([]drop, 12)
	for i := range drops {
		drops[i] = drop{rng.Float64() * 2 * math.Pi, 0.5 + 0.5*rng.Float64(), 1.6 + 1.6*rng.Float64()}
	}
	m := float64(n / 2)
	for f := range sheet.BurstFrames {
		c.cell(f, 0, n, n)
		t := (float64(f) + 0.6) / sheet.BurstFrames
		a := 1 - 0.8*t
		c.glow(m, m, 10+6*t, 1.2, beetle.with(0.55*a))
		for _, d := range drops {
			dist := (4 + 18*t) * d.v
			x, y := m+math.Cos(d.a)*dist, m+math.Sin(d.a)*dist
			r := d.r * (1 - 0.45*t)
			c.fill(disc(x, y, r+0.7), beetleDark.with(a))
			c.fill(disc(x, y, r), beetle.times(1.1).with(a))
		}
	}
	return c
}

// paintPickups draws each pickup on a row, with a glint crossing it over
// the frames: the health pack (a red cross on white), the spread gun (three
// shots fanning from a barrel on an amber plate) and double damage (a
// lightning bolt on a violet badge).
func paintPickups() *canvas {
	const n = sheet.PickupCell
	c := newCanvas(n*sheet.PickupFrames, n*sheet.PickupKinds)
	m := float64(n / 2)
	for kind := range sheet.PickupKinds {
		for f := range sheet.PickupFrames {
			c.cell(f, kind, n, n)
			var body func(x, y float64) float64
			switch kind {
			case sheet.PickupHealth:
				body = roundBox(m, m, 11, 11, 3, 0)
				c.fill(roundBox(m, m, 12, 12, 3.6, 0), hex(0x5a1020))
				c.shape(body, lit(hex(0xf4f4f4), m, m, 11, 0.78, 1.05))
				c.fill(roundBox(m, m, 7.5, 2.6, 0.6, 0), hex(0xe8304c))
				c.fill(roundBox(m, m, 2.6, 7.5, 0.6, 0), hex(0xe8304c))
			case sheet.PickupSpread:
				body = roundBox(m, m, 12, 10, 3, 0)
				c.fill(roundBox(m, m, 13, 11, 3.6, 0), hex(0x2a1a08))
				c.shape(body, lit(hex(0x7a5220), m, m, 11, 0.7, 1.15))
				for _, a := range []float64{-0.45, 0, 0.45} {
					x1, y1 := m-3+math.Cos(a)*13, m+math.Sin(a)*13
					c.fill(capsule(m-3, m, x1, y1, 2.4), hex(0xffc24a))
					c.fill(disc(x1, y1, 2), hex(0xfff1b0))
				}
				c.fill(roundBox(m-6, m, 4, 2.6, 1, 0), hex(0x1c1c1c))
			default: // sheet.PickupPower
				body = disc(m, m, 12)
				c.fill(disc(m, m, 13.2), hex(0x24104a))
				c.shape(body, lit(hex(0x9a52ff), m, m, 12, 0.7, 1.15))
				c.fill(polygon(m+2, m-10, m-6, m+1.5, m-0.5, m+1.5, m-2.5, m+10, m+6, m-2, m+0.5, m-2, m+3.5, m-10), hex(0xffe14a))
			}
			// The glint: a band of light sliding across, inside the body.
			gx := -14 + 28*float64(f)/(sheet.PickupFrames-1)
			band := capsule(m+gx-10, m+10, m+gx+10, m-10, 4)
			c.fill(func(x, y float64) float64 { return max(body(x, y), band(x, y)) }, grey(1).with(0.35))
		}
	}
	return c
}

// paintMarks draws the marks around bodies, in white where the game tints
// them: a soft shadow, a ring, a shield bubble, a halo and a dead player's
// cross.
func paintMarks() *canvas {
	const n = sheet.MarkCell
	c := newCanvas(n*sheet.MarkCols, n)
	m := float64(n / 2)
	c.cell(sheet.MarkShadow, 0, n, n)
	c.shape(disc(m, m, 14), func(x, y float64) rgba {
		d := math.Hypot(x-m, y-m)
		return grey(0).with(0.42 * clamp01((14-d)/5))
	})
	c.cell(sheet.MarkRing, 0, n, n)
	c.fill(func(x, y float64) float64 { return math.Abs(math.Hypot(x-m, y-m)-18) - 1 }, grey(1))
	c.cell(sheet.MarkShield, 0, n, n)
	c.fill(disc(m, m, 20), grey(1).with(0.2))
	c.fill(func(x, y float64) float64 { return math.Abs(math.Hypot(x-m, y-m)-20) - 1 }, grey(1).with(0.75))
	c.fill(ellipse(m-8, m-9, 5, 2.4, -0.7), grey(1).with(0.35))
	c.cell(sheet.MarkHalo, 0, n, n)
	c.glow(m, m, 22, 1.8, grey(1).with(0.7))
	c.cell(sheet.MarkCross, 0, n, n)
	for _, s := range []float64{-1, 1} {
		c.fill(capsule(m-8, m-8*s, m+8, m+8*s, 5.5), grey(0.15).with(0.8))
	}
	for _, s := range []float64{-1, 1} {
		c.fill(capsule(m-8, m-8*s, m+8, m+8*s, 3.2), grey(0.92))
	}
	return c
}
