package brain

import (
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
)

// distances returns every tile's number of steps from tile goal over the
// open tiles of m, four ways (-1: unreachable), by a plain flood.
func distances(m *arena.Map, goal int) []int {
	dist := make([]int, tiles)
	for i := range dist {
		dist[i] = -1
	}
	dist[goal] = 0
	queue := []int{goal}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		x, y := i%arena.Tiles, i/arena.Tiles
		for _, j := range []int{i + 1, i - 1, i + arena.Tiles, i - arena.Tiles} {
			jx, jy := j%arena.Tiles, j/arena.Tiles
			if j < 0 || j >= tiles || abs(jx-x)+abs(jy-y) != 1 || m.Wall(jx, jy) || dist[j] >= 0 {
				continue
			}
			dist[j] = dist[i] + 1
			queue = append(queue, j)
		}
	}
	return dist
}

func abs(v int) int { return max(v, -v) }

// TestRouterFindsShortestRoutes: between random open tiles of generated
// maps the router finds a route of open, neighbouring tiles exactly as
// long as the shortest, whether it searches afresh or reuses the tree of
// its last search towards the same goal; it finds none from or to a wall.
func TestRouterFindsShortestRoutes(t *testing.T) {
	for _, seed := range []uint64{1, 21, 99} {
		m := arena.NewMap(seed)
		r := newRouter(m)
		rng := rand.New(rand.NewPCG(seed, 1))
		open := func() int {
			for {
				if i := rng.IntN(tiles); !m.Wall(i%arena.Tiles, i/arena.Tiles) {
					return i
				}
			}
		}
		reused := 0
		for range 50 {
			goal := open()
			dist := distances(m, goal)
			for range 5 { // five starts to one goal: the later ones may reuse the tree
				start := open()
				searches := r.searches
				if !r.find(start, goal) {
					t.Fatalf("map %d: no route from %d to %d (%d steps)", seed, start, goal, dist[start])
				}
				if r.searches == searches {
					reused++
				}
				route := r.route[:r.n]
				if int(route[0]) != start || int(route[len(route)-1]) != goal || len(route)-1 != dist[start] {
					t.Fatalf("map %d: route %d..%d of %d steps, want %d..%d of %d", seed, route[0], route[len(route)-1], len(route)-1, start, goal, dist[start])
				}
				for k := 1; k < len(route); k++ {
					a, b := int(route[k-1]), int(route[k])
					if abs(a%arena.Tiles-b%arena.Tiles)+abs(a/arena.Tiles-b/arena.Tiles) != 1 || m.Wall(b%arena.Tiles, b/arena.Tiles) {
						t.Fatalf("map %d: step %d of the route, %d -> %d, is no step to an open neighbour", seed, k, a, b)
					}
				}
			}
		}
		t.Logf("map %d: 250 routes, %d from the last search's tree", seed, reused)
		if reused == 0 {
			t.Errorf("map %d: no route came from the last search's tree", seed)
		}
		wall := 0 // the corner tile: always wall
		if r.find(wall, open()) || r.find(open(), wall) || r.find(-1, open()) || r.find(open(), tiles) {
			t.Errorf("map %d: a route from or to a wall or off the map", seed)
		}
		if c := tiles/2 + arena.Tiles/2; !r.find(c, c) || r.n != 1 {
			t.Errorf("map %d: from a tile to itself: %d tiles, want 1", seed, r.n)
		}
	}
}

// BenchmarkRouterSearch: a fresh search every time, corner to corner of
// the map and back (the farthest a route goes).
func BenchmarkRouterSearch(b *testing.B) {
	m := arena.NewMap(21)
	r := newRouter(m)
	var ends []int
	for _, c := range [][2]int{{1, 1}, {arena.Tiles - 2, arena.Tiles - 2}, {1, arena.Tiles - 2}, {arena.Tiles - 2, 1}} {
		d := distances(m, tiles/2+arena.Tiles/2)
		best := -1 // the open tile nearest the corner
		for i := range tiles {
			x, y := i%arena.Tiles, i/arena.Tiles
			if d[i] >= 0 && (best < 0 || abs(x-c[0])+abs(y-c[1]) < abs(best%arena.Tiles-c[0])+abs(best/arena.Tiles-c[1])) {
				best = i
			}
		}
		ends = append(ends, best)
	}
	b.ReportAllocs()
	k, steps := 0, 0
	for b.Loop() {
		if !r.find(ends[k%4], ends[(k+1)%4]) {
			b.Fatal("no route")
		}
		steps += r.n - 1
		k++
	}
	b.ReportMetric(float64(steps)/float64(k), "steps/route")
}
