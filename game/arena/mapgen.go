package arena

import (
	"math"
	"math/rand/v2"
)

// Map is the arena's walls: a grid of Tiles x Tiles, true where a wall is.
// The outer ring is always wall.
type Map struct {
	wall [Tiles * Tiles]bool
}

// NewMap generates the map of a seed: the border, a few long walls that make
// corridors and rooms, and scattered pillars, always leaving the middle open
// and every open tile reachable.
func NewMap(seed uint64) *Map {
	m := &Map{}
	rng := rand.New(rand.NewPCG(seed, 0x6d6170))
	for i := range Tiles {
		m.set(i, 0)
		m.set(i, Tiles-1)
		m.set(0, i)
		m.set(Tiles-1, i)
	}
	// Long walls with gaps.
	for range 18 {
		horizontal := rng.IntN(2) == 0
		length := 6 + rng.IntN(14)
		x, y := 3+rng.IntN(Tiles-6), 3+rng.IntN(Tiles-6)
		gap := rng.IntN(length)
		for k := range length {
			if k == gap || k == gap+1 {
				continue
			}
			if horizontal {
				m.set(x+k, y)
			} else {
				m.set(x, y+k)
			}
		}
	}
	// Pillars.
	for range 60 {
		x, y := 2+rng.IntN(Tiles-4), 2+rng.IntN(Tiles-4)
		m.set(x, y)
		if rng.IntN(2) == 0 {
			m.set(x+1, y)
			m.set(x, y+1)
			m.set(x+1, y+1)
		}
	}
	// Keep the middle open: every open tile must connect to it, and a
	// client not (yet) in the match watches from it.
	c := Tiles / 2
	for y := c - 3; y <= c+3; y++ {
		for x := c - 3; x <= c+3; x++ {
			m.wall[y*Tiles+x] = false
		}
	}
	m.openSealedPockets()
	return m
}

func (m *Map) set(x, y int) {
	if x >= 0 && y >= 0 && x < Tiles && y < Tiles {
		m.wall[y*Tiles+x] = true
	}
}

// openSealedPockets turns into wall every open tile the middle cannot reach,
// so nothing spawns where nobody can go.
func (m *Map) openSealedPockets() {
	var seen [Tiles * Tiles]bool
	stack := []int{(Tiles/2)*Tiles + Tiles/2}
	seen[stack[0]] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%Tiles, i/Tiles
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := x+d[0], y+d[1]
			j := ny*Tiles + nx
			if nx < 0 || ny < 0 || nx >= Tiles || ny >= Tiles || seen[j] || m.wall[j] {
				continue
			}
			seen[j] = true
			stack = append(stack, j)
		}
	}
	for i := range m.wall {
		if !seen[i] {
			m.wall[i] = true
		}
	}
}

// Wall reports whether tile (tx, ty) is wall; outside the map is wall.
func (m *Map) Wall(tx, ty int) bool {
	if tx < 0 || ty < 0 || tx >= Tiles || ty >= Tiles {
		return true
	}
	return m.wall[ty*Tiles+tx]
}

// Blocked reports whether a circle of radius r at (x, y) overlaps a wall.
func (m *Map) Blocked(x, y, r float64) bool {
	x0, x1 := int(math.Floor((x-r)/Tile)), int(math.Floor((x+r)/Tile))
	y0, y1 := int(math.Floor((y-r)/Tile)), int(math.Floor((y+r)/Tile))
	for ty := y0; ty <= y1; ty++ {
		for tx := x0; tx <= x1; tx++ {
			if !m.Wall(tx, ty) {
				continue
			}
			// Nearest point of the tile to the centre.
			nx := min(max(x, float64(tx*Tile)), float64(tx*Tile+Tile))
			ny := min(max(y, float64(ty*Tile)), float64(ty*Tile+Tile))
			if (nx-x)*(nx-x)+(ny-y)*(ny-y) < r*r {
				return true
			}
		}
	}
	return false
}

// Slide moves a circle of radius r from (x, y) by (dx, dy), one axis at a
// time so that it slides along walls instead of sticking. Each axis moves as
// far as it can in steps no longer than the radius (nothing tunnels).
func (m *Map) Slide(x, y, dx, dy, r float64) (float64, float64) {
	steps := int(math.Ceil(math.Max(math.Abs(dx), math.Abs(dy)) / (r / 2)))
	steps = max(steps, 1)
	sx, sy := dx/float64(steps), dy/float64(steps)
	for range steps {
		if nx := x + sx; !m.Blocked(nx, y, r) {
			x = nx
		}
		if ny := y + sy; !m.Blocked(x, ny, r) {
			y = ny
		}
	}
	return x, y
}

// PositionGrid is the grid, in px, players stand on at the end of every
// tick: the wire's precision (protocol.PosPrecision). A client's
// prediction replays its inputs from the position a snapshot gives, which
// is then exactly the server's: near a wall, a position a rounding away
// from the server's could let a step the server refused (or refuse one it
// let), a correction of a sub-step every snapshot along the wall.
const PositionGrid = 1.0 / 8

// Snap returns the grid point (PositionGrid) nearest to (x, y) where a
// player (a circle of PlayerRadius) is not blocked: the nearest one, or if that one
// touches a wall the corner of the grid cell around (x, y) on the far side
// of it; (x, y) itself if every corner is blocked.
func (m *Map) Snap(x, y float64) (float64, float64) {
	const r = PlayerRadius
	gx, gy := math.Round(x/PositionGrid)*PositionGrid, math.Round(y/PositionGrid)*PositionGrid
	if !m.Blocked(gx, gy, r) {
		return gx, gy
	}
	fx, fy := math.Floor(x/PositionGrid)*PositionGrid, math.Floor(y/PositionGrid)*PositionGrid
	for _, c := range [4][2]float64{{fx, fy}, {fx + PositionGrid, fy}, {fx, fy + PositionGrid}, {fx + PositionGrid, fy + PositionGrid}} {
		if !m.Blocked(c[0], c[1], r) {
			return c[0], c[1]
		}
	}
	return x, y
}

// OpenSpot returns a random open position where a circle of radius r fits.
func (m *Map) OpenSpot(rng *rand.Rand, r float64) (float64, float64) {
	for {
		x := Tile + rng.Float64()*(WorldSize-2*Tile)
		y := Tile + rng.Float64()*(WorldSize-2*Tile)
		if !m.Blocked(x, y, r) {
			return x, y
		}
	}
}
