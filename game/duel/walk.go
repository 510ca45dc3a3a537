package duel

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
)

// point is a position in px.
type point struct{ x, y float64 }

func dist(a, b point) float64 { return math.Hypot(a.x-b.x, a.y-b.y) }

// route returns the waypoints from (x0, y0) to (x1, y1): the centres of
// the open tiles of a shortest 4-connected path between their tiles, and the
// goal itself last; nil if there is none. Walking straight from a point of
// one tile to the centre of the next stays within the two (a rectangle), so
// a player following the waypoints meets no wall head-on.
func route(m *arena.Map, from, to point) []point {
	tile := func(p point) int {
		tx := min(max(int(p.x/arena.Tile), 0), arena.Tiles-1)
		ty := min(max(int(p.y/arena.Tile), 0), arena.Tiles-1)
		return ty*arena.Tiles + tx
	}
	start, goal := tile(from), tile(to)
	prev := make([]int32, arena.Tiles*arena.Tiles)
	for i := range prev {
		prev[i] = -1
	}
	prev[start] = int32(start)
	queue := []int{start}
	for len(queue) > 0 && prev[goal] < 0 {
		i := queue[0]
		queue = queue[1:]
		tx, ty := i%arena.Tiles, i/arena.Tiles
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := tx+d[0], ty+d[1]
			if m.Wall(nx, ny) {
				continue // also outside the map
			}
			j := ny*arena.Tiles + nx
			if prev[j] < 0 {
				prev[j] = int32(i)
				queue = append(queue, j)
			}
		}
	}
	if prev[goal] < 0 {
		return nil
	}
	var rev []point
	for i := goal; ; i = int(prev[i]) {
		rev = append(rev, point{float64(i%arena.Tiles)*arena.Tile + arena.Tile/2, float64(i/arena.Tiles)*arena.Tile + arena.Tile/2})
		if i == start {
			break
		}
	}
	path := make([]point, 0, len(rev)+1)
	for k := len(rev) - 1; k >= 0; k-- {
		path = append(path, rev[k])
	}
	return append(path, to)
}

// walker steers a player along a route to a goal.
type walker struct {
	m    *arena.Map
	path []point
	next int
	goal point
}

// arriveWithin is how close, in px, a walker must come to its goal.
const arriveWithin = 1.0

// lookAhead bounds how many waypoints ahead a walker looks for one it can
// walk to straight.
const lookAhead = 6

func (w *walker) to(m *arena.Map, from, goal point) {
	w.m, w.goal, w.next = m, goal, 0
	w.path = route(m, from, goal)
	if w.path == nil {
		w.path = []point{goal}
	}
}

// stick returns the input's stick for a player at p, and whether it has
// arrived (then the stick is zero).
func (w *walker) stick(p point) (int8, int8, bool) {
	if dist(p, w.goal) <= arriveWithin {
		return 0, 0, true
	}
	// The farthest waypoint within reach that the player walks to straight.
	for j := min(w.next+lookAhead, len(w.path)-1); j > w.next; j-- {
		if w.m.Clear(p.x, p.y, w.path[j].x, w.path[j].y, arena.PlayerRadius+0.5) {
			w.next = j
			break
		}
	}
	t := w.path[w.next]
	if w.next < len(w.path)-1 && dist(p, t) < arena.PlayerSpeed*arena.Dt {
		w.next++
		t = w.path[w.next]
	}
	return steer(p, t)
}

// steer returns the stick that moves a player at p toward t, no farther
// than t in one tick.
func steer(p, t point) (int8, int8, bool) {
	d := dist(p, t)
	if d == 0 {
		return 0, 0, true
	}
	f := min(1, d/(arena.PlayerSpeed*arena.Dt)) * 127 / d
	return int8(math.Round((t.x - p.x) * f)), int8(math.Round((t.y - p.y) * f)), false
}
