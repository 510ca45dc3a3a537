package arena

import (
	"math"
	"testing"
)

// handmade returns a map with the border and walls at the given tiles.
func handmade(walls ...[2]int) *Map {
	m := &Map{}
	for i := range Tiles {
		m.set(i, 0)
		m.set(i, Tiles-1)
		m.set(0, i)
		m.set(Tiles-1, i)
	}
	for _, w := range walls {
		m.set(w[0], w[1])
	}
	return m
}

func TestMapClear(t *testing.T) {
	// One wall: tiles (10..12, 10), i.e. x in [640, 832), y in [640, 704).
	m := handmade([2]int{10, 10}, [2]int{11, 10}, [2]int{12, 10})
	const top, bottom, left, right = 640.0, 704.0, 640.0, 832.0
	cases := []struct {
		name           string
		x0, y0, x1, y1 float64
		r              float64
		want           bool
	}{
		{"open floor", 200, 200, 600, 500, PlayerRadius, true},
		{"through the wall", 700, 600, 700, 750, 0, false},
		{"through the wall, short", 700, 630, 700, 710, ProjectileRadius, false},
		{"diagonally through the wall", 600, 600, 900, 750, ProjectileRadius, false},
		{"along the wall's face, a ray", 600, top - 8, 900, top - 8, 0, true},
		{"along the wall's face, a shot", 600, top - 8, 900, top - 8, ProjectileRadius, true},
		{"along the wall's face, a player", 600, top - 8, 900, top - 8, PlayerRadius, false},
		{"touching the face is clear (as Blocked)", 600, top - 10, 900, top - 10, 10, true},
		{"a hair into the face", 600, top - 10, 900, top - 10, 10.01, false},
		{"a ray on the face", 600, top, 900, top, 0, false},
		{"a ray a hair off the face", 600, top - 0.01, 900, top - 0.01, 0, true},
		{"beside the wall's end, 3 px off: a ray", right + 3, bottom + 40, right + 3, top - 40, 0, true},
		{"beside the wall's end, 3 px off: a shot", right + 3, bottom + 40, right + 3, top - 40, ProjectileRadius, false},
		// x + y = 1538 passes the corner (832, 704) at √2 px.
		{"past the corner at √2 px, r 1.41", right - 20, bottom + 22, right + 22, bottom - 20, 1.41, true},
		{"past the corner at √2 px, r 1.42", right - 20, bottom + 22, right + 22, bottom - 20, 1.42, false},
		{"past the corner, a player", right - 20, bottom + 22, right + 22, bottom - 20, PlayerRadius, false},
		{"ends inside the wall", 700, 600, 700, 660, 0, false},
		{"starts inside the wall", 700, 660, 700, 600, 0, false},
		{"ends short of the wall", left - 40, 672, left - 2, 672, 1.99, true},
		{"ends 2 px short of the wall, r 2", left - 40, 672, left - 2, 672, 2.01, false},
		{"a point in the open", 300, 300, 300, 300, PlayerRadius, true},
		{"a point in a wall", 700, 672, 700, 672, 0, false},
		{"a point near a wall", 700, top - 5, 700, top - 5, 5.5, false},
		{"into the border", 200, 200, 30, 200, 0, false},
		{"off the map", 200, 200, -500, 200, 0, false},
		{"off the map, far", -1e6, 200, -1e6 + 10, 200, 0, false},
		{"not a number", 200, 200, math.NaN(), 200, 0, false},
		{"infinite", 200, 200, math.Inf(1), 200, 0, false},
		{"a negative radius", 200, 200, 300, 200, -1, false},
		{"across the map, under the wall", 100, 2000, 4000, 2000, PlayerRadius, true},
		{"across the map, through the wall", 100, 100, 4000, 4000, ProjectileRadius, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := m.Clear(c.x0, c.y0, c.x1, c.y1, c.r); got != c.want {
				t.Fatalf("Clear(%v, %v -> %v, %v, r %v) = %v, want %v", c.x0, c.y0, c.x1, c.y1, c.r, got, c.want)
			}
			// A line is as clear one way as the other.
			if got := m.Clear(c.x1, c.y1, c.x0, c.y0, c.r); got != c.want {
				t.Fatalf("reversed: %v, want %v", got, c.want)
			}
		})
	}
}

// TestMapClearMatchesShots: on a generated map, every line Clear calls
// clear for ProjectileRadius lets a shot flown as the World flies them
// through, and Clear calls blocked few lines a shot gets through (a shot is
// checked only every sub-step, and stops short of where it hits).
func TestMapClearMatchesShots(t *testing.T) {
	w := newBare(t, Config{Seed: 5, Creatures: -1, Pickups: -1})
	m := w.Map()
	rng := w.rng
	const shots = 20000
	agree, clear := 0, 0
	for range shots {
		x0, y0 := m.OpenSpot(rng, PlayerRadius)
		a := rng.Float64() * 2 * math.Pi
		d := 50 + rng.Float64()*400
		x1, y1 := x0+d*math.Cos(a), y0+d*math.Sin(a)
		// Fly a projectile as stepShots does, as far as d.
		const step = ProjectileSpeed * Dt / shotSubSteps
		vx, vy := math.Cos(a)*step, math.Sin(a)*step
		x, y, through := x0, y0, true
		for flown := step; flown <= d; flown += step {
			x, y = x+vx, y+vy
			if m.Blocked(x, y, ProjectileRadius) {
				through = false
				break
			}
		}
		ok := m.Clear(x0, y0, x1, y1, ProjectileRadius)
		if ok {
			clear++
			if !through {
				t.Fatalf("Clear(%v, %v -> %v, %v) but the shot stopped at (%v, %v)", x0, y0, x1, y1, x, y)
			}
		}
		if ok == through {
			agree++
		}
	}
	t.Logf("%d of %d lines clear; Clear and the flown shot agree on %d", clear, shots, agree)
	if clear < shots/10 || clear > shots*9/10 {
		t.Fatalf("%d of %d lines clear: the test does not test", clear, shots)
	}
	if agree < shots*97/100 {
		t.Fatalf("Clear and the shots agree on only %d of %d lines", agree, shots)
	}
}

// TestMapClearIsExact: against Blocked asked every 1/32 px along random
// segments of a generated map, Clear is never more lenient, and never
// stricter than Blocked with the radius 1/32 px larger.
func TestMapClearIsExact(t *testing.T) {
	w := newBare(t, Config{Seed: 9, Creatures: -1, Pickups: -1})
	m := w.Map()
	rng := w.rng
	walk := func(x0, y0, x1, y1, r float64) bool {
		const step = 1.0 / 32
		n := int(math.Ceil(math.Hypot(x1-x0, y1-y0) / step))
		for i := range n + 1 {
			f := float64(i) / float64(max(n, 1))
			if m.Blocked(x0+f*(x1-x0), y0+f*(y1-y0), r) {
				return false
			}
		}
		return true
	}
	grazes, clear := 0, 0
	const lines = 3000
	for range lines {
		x0, y0 := m.OpenSpot(rng, 1)
		a, d := rng.Float64()*2*math.Pi, rng.Float64()*300
		x1, y1 := min(max(x0+d*math.Cos(a), 0), WorldSize), min(max(y0+d*math.Sin(a), 0), WorldSize)
		r := []float64{1, ProjectileRadius, CreatureRadius, PlayerRadius}[rng.IntN(4)]
		got := m.Clear(x0, y0, x1, y1, r)
		if got {
			clear++
		}
		if !got && walk(x0, y0, x1, y1, r) {
			grazes++ // within 1/32 px: the walk may step over it
			if !walk(x0, y0, x1, y1, r+1.0/32) {
				continue
			}
			t.Fatalf("Clear(%v, %v -> %v, %v, r %v) = false; the walk finds no wall within r + 1/32", x0, y0, x1, y1, r)
		}
		if got && !walk(x0, y0, x1, y1, r) {
			t.Fatalf("Clear(%v, %v -> %v, %v, r %v) = true; the walk meets a wall", x0, y0, x1, y1, r)
		}
	}
	t.Logf("%d of %d lines clear; %d grazes within 1/32 px", clear, lines, grazes)
	if clear < lines/10 || clear > lines*9/10 {
		t.Fatalf("%d of %d lines clear: the test does not test", clear, lines)
	}
}
