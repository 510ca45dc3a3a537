package arena

import "math"

// Clear reports whether a circle of radius r can travel in a straight line
// from (x0, y0) to (x1, y1) without overlapping a wall: whether every point
// of the segment is at least r from every wall tile, as Blocked asks of one
// point. With r = ProjectileRadius it tells whether a shot gets through
// (projectiles stop where Blocked); with r = PlayerRadius, whether a player
// walks there without touching a wall; with r = 0, whether a ray of light
// does (for r = 0 a ray that touches a wall tile counts as blocked). A
// segment with an end outside the map is never clear.
//
// It is exact, not sampled: it looks at the wall tiles within r of the
// segment's rows and measures each one's distance to the segment.
func (m *Map) Clear(x0, y0, x1, y1, r float64) bool {
	if !inMap(x0, y0) || !inMap(x1, y1) || !(r >= 0) || math.IsInf(r, 1) {
		return false
	}
	dx, dy := x1-x0, y1-y0
	rows0, rows1 := tileIndex((min(y0, y1)-r)/Tile), tileIndex((max(y0, y1)+r)/Tile)
	for ty := rows0; ty <= rows1; ty++ {
		// The part of the segment within r of this row.
		lo, hi := float64(ty*Tile)-r, float64(ty*Tile+Tile)+r
		xa, xb := min(x0, x1), max(x0, x1)
		if dy != 0 {
			ta, tb := (lo-y0)/dy, (hi-y0)/dy
			ta, tb = max(min(ta, tb), 0), min(max(ta, tb), 1)
			if ta > tb {
				continue
			}
			xa, xb = x0+ta*dx, x0+tb*dx
			xa, xb = min(xa, xb), max(xa, xb)
		}
		for tx, last := tileIndex((xa-r)/Tile), tileIndex((xb+r)/Tile); tx <= last; tx++ {
			if !m.Wall(tx, ty) {
				continue
			}
			rx0, ry0 := float64(tx*Tile), float64(ty*Tile)
			if segmentMeetsBox(x0, y0, dx, dy, rx0, ry0, rx0+Tile, ry0+Tile) ||
				segmentBoxDist2(x0, y0, x1, y1, rx0, ry0, rx0+Tile, ry0+Tile) < r*r {
				return false
			}
		}
	}
	return true
}

func inMap(x, y float64) bool { return x >= 0 && y >= 0 && x <= WorldSize && y <= WorldSize }

// tileIndex returns the tile of a coordinate in tiles, clamped to the map.
func tileIndex(v float64) int {
	return min(max(int(math.Floor(v)), 0), Tiles-1)
}

// segmentMeetsBox reports whether the segment from (x0, y0) along (dx, dy)
// touches the closed box [bx0, bx1] x [by0, by1] (Liang-Barsky clipping).
func segmentMeetsBox(x0, y0, dx, dy, bx0, by0, bx1, by1 float64) bool {
	t0, t1 := 0.0, 1.0
	for _, e := range [4][2]float64{{-dx, x0 - bx0}, {dx, bx1 - x0}, {-dy, y0 - by0}, {dy, by1 - y0}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false // parallel to this edge, outside it
			}
			continue
		}
		t := q / p
		if p < 0 {
			if t > t1 {
				return false
			}
			t0 = max(t0, t)
		} else {
			if t < t0 {
				return false
			}
			t1 = min(t1, t)
		}
	}
	return true
}

// segmentBoxDist2 returns the squared distance between a segment and a box
// it does not touch: the nearest pair has an end of the segment or a corner
// of the box in it.
func segmentBoxDist2(x0, y0, x1, y1, bx0, by0, bx1, by1 float64) float64 {
	d := min(pointBoxDist2(x0, y0, bx0, by0, bx1, by1), pointBoxDist2(x1, y1, bx0, by0, bx1, by1))
	for _, c := range [4][2]float64{{bx0, by0}, {bx1, by0}, {bx0, by1}, {bx1, by1}} {
		d = min(d, pointSegmentDist2(c[0], c[1], x0, y0, x1, y1))
	}
	return d
}

func pointBoxDist2(x, y, bx0, by0, bx1, by1 float64) float64 {
	dx := max(bx0-x, 0, x-bx1)
	dy := max(by0-y, 0, y-by1)
	return dx*dx + dy*dy
}

func pointSegmentDist2(px, py, x0, y0, x1, y1 float64) float64 {
	dx, dy := x1-x0, y1-y0
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = min(max(((px-x0)*dx+(py-y0)*dy)/l, 0), 1)
	}
	ex, ey := x0+t*dx-px, y0+t*dy-py
	return ex*ex + ey*ey
}
