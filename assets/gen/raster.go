package gen

import (
	"bytes"
	"image"
	"image/png"
	"math"
)

// rgba is a colour with straight (not premultiplied) components in 0..1.
type rgba struct{ r, g, b, a float64 }

// hex makes an opaque colour from 0xRRGGBB.
func hex(v uint32) rgba {
	return rgba{float64(v>>16&0xff) / 255, float64(v>>8&0xff) / 255, float64(v&0xff) / 255, 1}
}

// grey makes an opaque grey of lightness v (0..1).
func grey(v float64) rgba { return rgba{v, v, v, 1} }

// with returns c with opacity a.
func (c rgba) with(a float64) rgba { c.a = a; return c }

// times scales c's colour (not its opacity) by k, clamped.
func (c rgba) times(k float64) rgba {
	return rgba{clamp01(c.r * k), clamp01(c.g * k), clamp01(c.b * k), c.a}
}

// mix goes from c (t=0) to d (t=1).
func (c rgba) mix(d rgba, t float64) rgba {
	return rgba{c.r + (d.r-c.r)*t, c.g + (d.g-c.g)*t, c.b + (d.b-c.b)*t, c.a + (d.a-c.a)*t}
}

func clamp01(v float64) float64 { return min(max(v, 0), 1) }

// canvas is a sheet being painted: premultiplied colour in float64, with an
// origin that frame painters move to draw each frame in its cell.
type canvas struct {
	w, h   int
	px     []float64 // premultiplied r, g, b, a per pixel
	ox, oy float64   // where (0, 0) of the painting falls on the sheet
	clip   image.Rectangle
}

func newCanvas(w, h int) *canvas {
	return &canvas{w: w, h: h, px: make([]float64, 4*w*h), clip: image.Rect(0, 0, w, h)}
}

// cell points the canvas at the cell of size (cw, ch) at column i, row j:
// painting coordinates are then relative to that cell's top-left corner,
// and painting stays inside it.
func (c *canvas) cell(i, j, cw, ch int) {
	c.ox, c.oy = float64(i*cw), float64(j*ch)
	c.clip = image.Rect(i*cw, j*ch, (i+1)*cw, (j+1)*ch).Intersect(image.Rect(0, 0, c.w, c.h))
}

// blend puts colour col with coverage k over pixel (x, y) of the sheet.
func (c *canvas) blend(x, y int, col rgba, k float64) {
	a := col.a * clamp01(k)
	if a <= 0 {
		return
	}
	p := c.px[4*(y*c.w+x):]
	p[0] = col.r*a + p[0]*(1-a)
	p[1] = col.g*a + p[1]*(1-a)
	p[2] = col.b*a + p[2]*(1-a)
	p[3] = a + p[3]*(1-a)
}

// shape paints the shape whose signed distance (negative inside, in px) is
// sdf, antialiased over one pixel, in the colour shade gives at each point.
// Points are in cell coordinates.
func (c *canvas) shape(sdf func(x, y float64) float64, shade func(x, y float64) rgba) {
	for y := c.clip.Min.Y; y < c.clip.Max.Y; y++ {
		for x := c.clip.Min.X; x < c.clip.Max.X; x++ {
			px, py := float64(x)+0.5-c.ox, float64(y)+0.5-c.oy
			d := sdf(px, py)
			if d >= 0.5 {
				continue
			}
			c.blend(x, y, shade(px, py), 0.5-d)
		}
	}
}

// fill paints a shape in one colour.
func (c *canvas) fill(sdf func(x, y float64) float64, col rgba) {
	c.shape(sdf, func(float64, float64) rgba { return col })
}

// glow paints a soft round light: opacity falls from col.a at the centre to
// nothing at radius r, as (1-d/r)^p.
func (c *canvas) glow(cx, cy, r, p float64, col rgba) {
	for y := c.clip.Min.Y; y < c.clip.Max.Y; y++ {
		for x := c.clip.Min.X; x < c.clip.Max.X; x++ {
			d := math.Hypot(float64(x)+0.5-c.ox-cx, float64(y)+0.5-c.oy-cy)
			if d < r {
				c.blend(x, y, col, math.Pow(1-d/r, p))
			}
		}
	}
}

// pixel blends col over one pixel given in cell coordinates.
func (c *canvas) pixel(x, y int, col rgba) {
	sx, sy := x+int(c.ox), y+int(c.oy)
	if image.Pt(sx, sy).In(c.clip) {
		c.blend(sx, sy, col, 1)
	}
}

// nrgba returns the sheet as an image with 8-bit straight alpha.
func (c *canvas) nrgba() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, c.w, c.h))
	for i := 0; i < c.w*c.h; i++ {
		p := c.px[4*i:]
		a := p[3]
		if a <= 0.5/255 {
			continue
		}
		q := img.Pix[4*i:]
		q[0] = to8(p[0] / a)
		q[1] = to8(p[1] / a)
		q[2] = to8(p[2] / a)
		q[3] = to8(a)
	}
	return img
}

func to8(v float64) uint8 { return uint8(clamp01(v)*255 + 0.5) }

// encodePNG encodes img as compactly as the standard encoder can.
func encodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Signed distance functions, in cell coordinates.

// disc is a circle of radius r at (cx, cy).
func disc(cx, cy, r float64) func(x, y float64) float64 {
	return func(x, y float64) float64 { return math.Hypot(x-cx, y-cy) - r }
}

// ellipse is an ellipse with radii rx, ry at (cx, cy), turned by angle a
// (an approximate distance, exact on the axes).
func ellipse(cx, cy, rx, ry, a float64) func(x, y float64) float64 {
	s, co := math.Sincos(-a)
	return func(x, y float64) float64 {
		dx, dy := x-cx, y-cy
		u, v := dx*co-dy*s, dx*s+dy*co
		k := math.Hypot(u/rx, v/ry)
		if k == 0 {
			return -min(rx, ry)
		}
		// Distance along the ray scaled by the ellipse's local radius.
		return (k - 1) * math.Hypot(u, v) / k
	}
}

// capsule is a line from (x0, y0) to (x1, y1) with round ends, w wide.
func capsule(x0, y0, x1, y1, w float64) func(x, y float64) float64 {
	dx, dy := x1-x0, y1-y0
	l2 := dx*dx + dy*dy
	return func(x, y float64) float64 {
		t := 0.0
		if l2 > 0 {
			t = clamp01(((x-x0)*dx + (y-y0)*dy) / l2)
		}
		return math.Hypot(x-x0-t*dx, y-y0-t*dy) - w/2
	}
}

// roundBox is a rectangle centred at (cx, cy) with half sides hw, hh and
// corners rounded by r, turned by angle a.
func roundBox(cx, cy, hw, hh, r, a float64) func(x, y float64) float64 {
	s, co := math.Sincos(-a)
	return func(x, y float64) float64 {
		dx, dy := x-cx, y-cy
		u, v := math.Abs(dx*co-dy*s)-hw+r, math.Abs(dx*s+dy*co)-hh+r
		out := math.Hypot(max(u, 0), max(v, 0))
		return out + min(max(u, v), 0) - r
	}
}

// polygon is a closed polygon with the given vertices (x0, y0, x1, y1, ...).
func polygon(pts ...float64) func(x, y float64) float64 {
	n := len(pts) / 2
	return func(x, y float64) float64 {
		d := math.Inf(1)
		inside := false
		for i, j := 0, n-1; i < n; j, i = i, i+1 {
			xi, yi, xj, yj := pts[2*i], pts[2*i+1], pts[2*j], pts[2*j+1]
			ex, ey := xj-xi, yj-yi
			t := clamp01(((x-xi)*ex + (y-yi)*ey) / (ex*ex + ey*ey))
			d = min(d, math.Hypot(x-xi-t*ex, y-yi-t*ey))
			if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
				inside = !inside
			}
		}
		if inside {
			return -d
		}
		return d
	}
}

// union, cut: combining shapes.
func union(a, b func(x, y float64) float64) func(x, y float64) float64 {
	return func(x, y float64) float64 { return min(a(x, y), b(x, y)) }
}

func cut(a, b func(x, y float64) float64) func(x, y float64) float64 {
	return func(x, y float64) float64 { return max(a(x, y), -b(x, y)) }
}

// lit shades a round shape centred at (cx, cy) of radius r as if lit from
// the top left: from base*lo at the far edge to base*hi at the near one.
func lit(base rgba, cx, cy, r, lo, hi float64) func(x, y float64) rgba {
	return func(x, y float64) rgba {
		t := clamp01(0.5 - ((x-cx)+(y-cy))/(2.8*r))
		return base.times(lo + (hi-lo)*t)
	}
}
