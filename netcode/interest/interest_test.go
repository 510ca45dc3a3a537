package interest

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func brute(xs, ys []uint32, x, y, r uint32) []int32 {
	var out []int32
	for i := range xs {
		if dist2(xs[i], ys[i], x, y) <= uint64(r)*uint64(r) {
			out = append(out, int32(i))
		}
	}
	return out
}

func TestGridMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for run := range 200 {
		size := uint32(1000 + rng.IntN(60000))
		cell := uint32(1 + rng.IntN(int(size)/2))
		g := NewGrid(size, cell)
		n := rng.IntN(500)
		xs, ys := make([]uint32, n), make([]uint32, n)
		for i := range n {
			switch rng.IntN(5) {
			case 0: // on a cell border
				xs[i] = uint32(rng.IntN(int(size/cell)+1)) * cell
				ys[i] = uint32(rng.IntN(int(size/cell)+1)) * cell
			case 1: // at the world's edges
				xs[i] = []uint32{0, size - 1, size}[rng.IntN(3)]
				ys[i] = uint32(rng.IntN(int(size)))
			default:
				xs[i], ys[i] = uint32(rng.IntN(int(size))), uint32(rng.IntN(int(size)))
			}
		}
		g.Build(xs, ys)
		for range 20 {
			x, y := uint32(rng.IntN(int(size)+1)), uint32(rng.IntN(int(size)+1))
			if rng.IntN(4) == 0 && n > 0 { // exactly on an entity, radius to another: border distance
				x, y = xs[0], ys[0]
			}
			r := uint32(rng.IntN(int(size) / 3))
			got := g.Query(nil, x, y, r)
			slices.Sort(got)
			want := brute(xs, ys, x, y, r)
			if !slices.Equal(got, want) {
				t.Fatalf("run %d: query (%d,%d) r=%d cell %d: grid %v, brute force %v", run, x, y, r, cell, got, want)
			}
		}
	}
}

func TestGridQueryIncludesExactRadius(t *testing.T) {
	g := NewGrid(100, 10)
	xs, ys := []uint32{50, 53, 54, 0, 99}, []uint32{50, 54, 54, 0, 99}
	g.Build(xs, ys)
	got := g.Query(nil, 50, 50, 5) // (53,54) is exactly 5 away; (54,54) is 5.66
	slices.Sort(got)
	if !slices.Equal(got, []int32{0, 1}) {
		t.Fatalf("got %v, want [0 1]", got)
	}
	// The grid's square reaches (54,54)'s cell, the circle does not.
	if n := len(g.Query(nil, 0, 0, 0)); n != 1 {
		t.Fatalf("radius 0 at an entity finds %d", n)
	}
}

func TestAreaHysteresis(t *testing.T) {
	ents := &Entities{Slots: []uint16{0, 1}, Generations: []uint16{0, 0}, Xs: []uint32{100, 0}, Ys: []uint32{0, 0}}
	a := NewArea(100, 20, 4)
	g := NewGrid(1000, 50)
	step := func(x uint32) []int32 {
		ents.Xs[0] = x
		g.Build(ents.Xs, ents.Ys)
		near := g.Query(nil, 0, 0, a.Reach())
		return a.Update(nil, ents, near, 0, 0)
	}
	has := func(m []int32, e int32) bool { return slices.Contains(m, e) }
	if m := step(110); has(m, 0) {
		t.Fatal("entered beyond the radius")
	}
	if m := step(100); !has(m, 0) {
		t.Fatal("did not enter at the radius")
	}
	if m := step(115); !has(m, 0) {
		t.Fatal("left inside the margin")
	}
	if m := step(121); has(m, 0) {
		t.Fatal("stayed beyond radius+margin")
	}
	if m := step(115); has(m, 0) {
		t.Fatal("re-entered inside the margin without reaching the radius")
	}
	step(90)
	ents.Generations[0] = 1 // the slot now holds another entity
	if m := step(115); has(m, 0) {
		t.Fatal("a new generation in the margin kept the old one's membership")
	}
}

func BenchmarkGrid(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 2000
	xs, ys := make([]uint32, n), make([]uint32, n)
	for i := range n {
		xs[i], ys[i] = uint32(rng.IntN(32768)), uint32(rng.IntN(32768))
	}
	g := NewGrid(32768, 2048)
	dst := make([]int32, 0, n)
	b.ReportAllocs()
	for b.Loop() {
		g.Build(xs, ys)
		for q := range 256 {
			dst = g.Query(dst[:0], xs[q], ys[q], 3200)
		}
	}
}
