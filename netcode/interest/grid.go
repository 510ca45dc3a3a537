package interest

import "slices"

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
	x0, x1, y0, y1 := g.cells(x, y, r)
	for cy := y0; cy <= y1; cy++ {
		// The row's cells x0..x1 hold consecutive items.
		from, to := g.start[cy*g.cols+x0], g.start[cy*g.cols+x1+1]
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

// cells returns the columns and rows of the cells within r of (x, y).
func (g *Grid) cells(x, y, r uint32) (x0, x1, y0, y1 int) {
	lo := func(v uint32) int {
		if v < r {
			return 0
		}
		return min(int((v-r)/g.cell), g.cols-1)
	}
	hi := func(v uint32) int { return min(int((uint64(v)+uint64(r))/uint64(g.cell)), g.cols-1) }
	return lo(x), hi(x), lo(y), hi(y)
}

// Dist2 returns the squared distance between two points.
func Dist2(ax, ay, bx, by uint32) uint64 { return dist2(ax, ay, bx, by) }

func dist2(ax, ay, bx, by uint32) uint64 {
	dx := int64(ax) - int64(bx)
	dy := int64(ay) - int64(by)
	return uint64(dx*dx + dy*dy)
}
