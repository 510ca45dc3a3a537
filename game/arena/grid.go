package arena

// grid indexes the live creatures and players of a tick by map tile, so a
// projectile or a creature looks only at its few neighbouring tiles. It is
// rebuilt every tick with a counting sort: no allocation, no map.
type grid struct {
	start [gridSide*gridSide + 1]int32 // items[start[c]:start[c+1]] lie in cell c
	fill  [gridSide * gridSide]int32   // scratch: next free place per cell
	items []int32                      // slots, by cell
	slots []int32                      // slots added this tick
	cells []int32                      // their cells
}

const gridSide = Tiles // cells of one Tile

func (g *grid) init(n int) {
	g.items = make([]int32, 0, n)
	g.slots = make([]int32, 0, n)
	g.cells = make([]int32, 0, n)
}

func (g *grid) reset() {
	g.slots, g.cells = g.slots[:0], g.cells[:0]
}

// cellCoord returns the cell column (or row) of coordinate v, clamped to the map.
func cellCoord(v float64) int {
	c := int(v / Tile)
	if v < 0 {
		c = 0
	}
	return min(max(c, 0), gridSide-1)
}

func (g *grid) add(slot int32, x, y float64) {
	g.slots = append(g.slots, slot)
	g.cells = append(g.cells, int32(cellCoord(y)*gridSide+cellCoord(x)))
}

// build sorts the added slots into cells, keeping their order within a cell.
func (g *grid) build() {
	clear(g.start[:])
	for _, c := range g.cells {
		g.start[c+1]++
	}
	for c := 1; c < len(g.start); c++ {
		g.start[c] += g.start[c-1]
	}
	copy(g.fill[:], g.start[:len(g.fill)])
	g.items = g.items[:len(g.slots)]
	for i, c := range g.cells {
		g.items[g.fill[c]] = g.slots[i]
		g.fill[c]++
	}
}
