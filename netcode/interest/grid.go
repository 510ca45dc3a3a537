package interest

import (
	"math"
	"slices"
)

// Grid is a spatial hash of entity positions: a square grid of cells over
// [0, size) in each axis, filled once per tick by counting sort. Build and
// Query allocate nothing once the grid has seen its largest population.
type Grid struct {
	cell   uint32  // cell side, in position units
	cols   int     // cells per row and per column
	start  []int32 // per cell: first item index; len cols*cols+1
	items  []int32 // entity indices, grouped by cell
	at     []point // per item: the entity's position, so that a query reads them in order
	cellOf []int32 // per entity: its cell
}

type point struct{ x, y uint32 }

// NewGrid returns a grid covering [0, size) in both axes with cells of side
// cell (positions beyond size fall into the edge cells).
func NewGrid(size, cell uint32) *Grid {
	if cell == 0 {
		cell = 1
	}
	cols := int((size + cell - 1) / cell)
	cols = max(cols, 1)
	return &Grid{cell: cell, cols: cols, start: make([]int32, cols*cols+1)}
}

func (g *Grid) cellIndex(x, y uint32) int32 {
	cx := min(int(x/g.cell), g.cols-1)
	cy := min(int(y/g.cell), g.cols-1)
	return int32(cy*g.cols + cx)
}

// Build indexes entities 0..len(xs)-1 at (xs[i], ys[i]). The grid keeps the
// slices until the next Build.
func (g *Grid) Build(xs, ys []uint32) {
	n := len(xs)
	ys = ys[:n]
	if cap(g.cellOf) < n {
		g.cellOf = make([]int32, n)
		g.items = make([]int32, n)
		g.at = make([]point, n)
	}
	g.cellOf, g.items, g.at = g.cellOf[:n], g.items[:n], g.at[:n]
	clear(g.start)
	for i := range n {
		c := g.cellIndex(xs[i], ys[i])
		g.cellOf[i] = c
		g.start[c+1]++
	}
	for c := 1; c < len(g.start); c++ {
		g.start[c] += g.start[c-1]
	}
	// Place each entity; start[c] advances as its cell fills, then is restored.
	for i := range n {
		c := g.cellOf[i]
		k := g.start[c]
		g.items[k] = int32(i)
		g.at[k] = point{xs[i], ys[i]}
		g.start[c]++
	}
	for c := len(g.start) - 1; c > 0; c-- {
		g.start[c] = g.start[c-1]
	}
	g.start[0] = 0
}

// Query appends to dst the entities within distance r of (x, y), inclusive,
// and returns dst. Order is by cell, not by distance.
func (g *Grid) Query(dst []int32, x, y, r uint32) []int32 {
	r2 := uint64(r) * uint64(r)
	y0, y1 := g.rows(y, r)
	for cy := y0; cy <= y1; cy++ {
		from, to := g.span(cy, x, y, r)
		items, at := g.items[from:to], g.at[from:to]
		n := len(dst)
		dst = slices.Grow(dst, len(items))
		out := dst[:n+len(items)]
		for k, p := range at {
			out[n] = items[k]
			if dist2(p.x, p.y, x, y) <= r2 {
				n++
			}
		}
		dst = out[:n]
	}
	return dst
}

// span returns the items of the cells of row cy that the circle of radius
// r around (x, y) reaches, which are consecutive: the columns its chord
// across the row's band of positions covers.
func (g *Grid) span(cy int, x, y, r uint32) (from, to int32) {
	// The distance from y to the row's band (the last row's reaches on).
	top, bottom := uint64(cy)*uint64(g.cell), uint64(cy+1)*uint64(g.cell)-1
	var dy uint64
	switch {
	case uint64(y) < top:
		dy = top - uint64(y)
	case uint64(y) > bottom && cy < g.cols-1:
		dy = uint64(y) - bottom
	}
	r2 := uint64(r) * uint64(r)
	if dy*dy > r2 {
		return 0, 0
	}
	// Half the chord, and one more for the square root's rounding: every
	// point of the band within r of (x, y) is within hw of x.
	hw := uint64(math.Sqrt(float64(r2-dy*dy))) + 1
	x0 := 0
	if uint64(x) > hw {
		x0 = int(min((uint64(x)-hw)/uint64(g.cell), uint64(g.cols-1)))
	}
	x1 := int(min((uint64(x)+hw)/uint64(g.cell), uint64(g.cols-1)))
	return g.start[cy*g.cols+x0], g.start[cy*g.cols+x1+1]
}

// rows returns the rows of the cells within r of y.
func (g *Grid) rows(y, r uint32) (y0, y1 int) {
	if y >= r {
		y0 = min(int((y-r)/g.cell), g.cols-1)
	}
	return y0, min(int((uint64(y)+uint64(r))/uint64(g.cell)), g.cols-1)
}

// Dist2 returns the squared distance between two points.
func Dist2(ax, ay, bx, by uint32) uint64 { return dist2(ax, ay, bx, by) }

func dist2(ax, ay, bx, by uint32) uint64 {
	dx := int64(ax) - int64(bx)
	dy := int64(ay) - int64(by)
	return uint64(dx*dx + dy*dy)
}
