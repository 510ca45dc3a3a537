package brain

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
)

// tiles is the number of map tiles; a tile's index is ty*arena.Tiles+tx.
const tiles = arena.Tiles * arena.Tiles

// Routes are walked towards their farthest tile within lookahead tiles that
// the bot has a clear line to for its body (Map.Clear for PlayerRadius): a
// route over the grid zigzags, the walk cuts its corners. (A bot brushing a
// wall, whose snapshot position may lie a hair inside the body's reach,
// sees no clear line and walks to the route's next tile.)
const lookahead = 10

// router finds walking routes over the map's open tiles: a breadth-first
// search from the goal's tile that stops on reaching the start's, so that
// every tile it reached knows its step towards the goal. A route from
// another start to the same goal that the last search reached needs no new
// search: walking towards a still goal, a bot searches once. Its buffers
// are made once, with the router, and every search reuses them: a search
// allocates nothing.
type router struct {
	m     *arena.Map
	seen  [tiles]uint32 // == stamp: reached by the last search
	next  [tiles]int16  // a reached tile's neighbour one step nearer the goal
	queue [tiles]int16
	stamp uint32
	goal  int          // the last search's goal; -1 before the first
	route [tiles]int16 // route[:n]: the tiles from start to goal, both in
	n     int
	// searches counts the searches made (not the routes found from the
	// last one's tree).
	searches int
}

func newRouter(m *arena.Map) *router { return &router{m: m, goal: -1} }

// setMap makes the router search m, forgetting the last search.
func (r *router) setMap(m *arena.Map) { r.m, r.goal = m, -1 }

// find finds a route from tile start to tile goal over open tiles, four
// ways from each tile, and reports whether there is one; the route is then
// route[:n], start first, goal last, as short as any. Equal tiles give a
// route of one.
func (r *router) find(start, goal int) bool {
	r.n = 0
	if !r.open(start) || !r.open(goal) {
		return false
	}
	if goal != r.goal || r.seen[start] != r.stamp {
		if !r.search(start, goal) {
			return false
		}
	}
	for i := start; ; i = int(r.next[i]) {
		r.route[r.n] = int16(i)
		r.n++
		if i == goal {
			return true
		}
	}
}

// search runs the breadth-first search from goal until it reaches start
// or every tile it can, and reports whether it reached start.
func (r *router) search(start, goal int) bool {
	r.searches++
	r.goal = goal
	r.stamp++
	if r.stamp == 0 { // wrapped: forget every search at once
		clear(r.seen[:])
		r.stamp = 1
	}
	r.seen[goal], r.next[goal] = r.stamp, int16(goal)
	r.queue[0] = int16(goal)
	for head, tail := 0, 1; head < tail && r.seen[start] != r.stamp; head++ {
		i := int(r.queue[head])
		x, y := i%arena.Tiles, i/arena.Tiles
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := x+d[0], y+d[1]
			if r.m.Wall(nx, ny) { // outside the map is wall too
				continue
			}
			j := ny*arena.Tiles + nx
			if r.seen[j] == r.stamp {
				continue
			}
			r.seen[j], r.next[j] = r.stamp, int16(i)
			r.queue[tail] = int16(j)
			tail++
		}
	}
	return r.seen[start] == r.stamp
}

func (r *router) open(i int) bool {
	return i >= 0 && i < tiles && !r.m.Wall(i%arena.Tiles, i/arena.Tiles)
}

// waypoint returns where a bot at (x, y), on the route's first tile, walks
// next: the centre of the farthest of the next lookahead tiles of the route
// it has a clear line to (stopping at the first it has not), and at least
// the next tile's. With a route of one tile it returns (gx, gy), the goal.
func (r *router) waypoint(x, y, gx, gy float64) (float64, float64) {
	if r.n < 2 {
		return gx, gy
	}
	k := 1
	for i := 2; i < r.n && i <= lookahead; i++ {
		cx, cy := tileCentre(int(r.route[i]))
		if !r.m.Clear(x, y, cx, cy, arena.PlayerRadius) {
			break
		}
		k = i
	}
	return tileCentre(int(r.route[k]))
}

// course is the route a bot walks: found on tick at from tile from to
// tile to (ok: there is one; from -1: search again); the bot walks towards
// (wayX, wayY). Roaming, fighting and fetching walk it.
type course struct {
	from, to, at int
	ok           bool
	wayX, wayY   float64
}

// follow returns the direction in which a bot at (x, y) walks to reach
// (gx, gy) over the map, and false if no route leads there (it then walks
// straight). The route is searched again when the bot's tile or the goal's
// changes, or after rerouteTicks; in between the bot keeps walking towards
// the waypoint chosen with it, whose line stays clear as it walks it.
func (b *Brain) follow(x, y, gx, gy float64) (float64, float64, bool) {
	c := &b.course
	from, to := tileOf(x, y), tileOf(gx, gy)
	if from != c.from || to != c.to || b.tick-c.at >= rerouteTicks {
		c.from, c.to, c.at = from, to, b.tick
		c.ok = b.nav.find(from, to)
		if c.ok {
			c.wayX, c.wayY = b.nav.waypoint(x, y, gx, gy)
		}
	}
	if !c.ok {
		return 0, 0, false
	}
	wx, wy := c.wayX, c.wayY
	if b.nav.n < 2 { // in the goal's tile: straight to it
		wx, wy = gx, gy
	}
	ux, uy, _ := direction(x, y, wx, wy)
	return ux, uy, true
}

// walks reports whether a bot at (x, y) walking in direction (ux, uy) for
// sightAhead ticks, sliding along walls as it would, gets at least half as
// far as in the open.
func (b *Brain) walks(x, y, ux, uy float64) bool {
	_, _, ok := b.walk(x, y, ux, uy)
	return ok
}

// walk returns where a bot at (x, y) walking in direction (ux, uy) is after
// sightAhead ticks, sliding along walls, and whether it got at least half
// as far as in the open.
func (b *Brain) walk(x, y, ux, uy float64) (lx, ly float64, ok bool) {
	const ahead = sightAhead * arena.PlayerSpeed * arena.Dt
	lx, ly = b.m.Slide(x, y, ux*ahead, uy*ahead, arena.PlayerRadius)
	return lx, ly, math.Hypot(lx-x, ly-y) >= ahead/2
}

// tileOf returns the index of the tile under (x, y), clamped to the map.
func tileOf(x, y float64) int {
	return tileCoord(y)*arena.Tiles + tileCoord(x)
}

func tileCoord(v float64) int {
	if !(v >= 0) {
		return 0
	}
	return min(int(v/arena.Tile), arena.Tiles-1)
}

func tileCentre(i int) (float64, float64) {
	return (float64(i%arena.Tiles) + 0.5) * arena.Tile, (float64(i/arena.Tiles) + 0.5) * arena.Tile
}

// direction returns the unit vector from (x, y) to (tx, ty) and the
// distance; (0, 0) when they are closer than a pixel's fraction.
func direction(x, y, tx, ty float64) (ux, uy, d float64) {
	d = math.Hypot(tx-x, ty-y)
	if d < 1e-6 {
		return 0, 0, d
	}
	return (tx - x) / d, (ty - y) / d, d
}
