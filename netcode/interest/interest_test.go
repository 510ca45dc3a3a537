package interest

import (
	"cmp"
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
			// In cell order (row by row), each cell's entities in index order.
			want := brute(xs, ys, x, y, r)
			slices.SortStableFunc(want, func(a, b int32) int {
				return cmp.Compare(g.cellIndex(xs[a], ys[a]), g.cellIndex(xs[b], ys[b]))
			})
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

// One tick of a crowded match's interest: 256 clients, each with its own
// area, query the grid around them among 2000 entities, some moving: by
// Grid.Query and Area.Update, and by Area.Query.
func BenchmarkAreas256(b *testing.B) {
	b.Run("QueryUpdate", func(b *testing.B) { benchAreas(b, false) })
	b.Run("AreaQuery", func(b *testing.B) { benchAreas(b, true) })
}

func benchAreas(b *testing.B, byQuery bool) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, clients = 2000, 256
	ents := &Entities{Slots: make([]uint16, n), Generations: make([]uint16, n), Xs: make([]uint32, n), Ys: make([]uint32, n)}
	for i := range n {
		ents.Slots[i] = uint16(i)
		ents.Xs[i], ents.Ys[i] = uint32(rng.IntN(32768)), uint32(rng.IntN(32768))
	}
	g := NewGrid(32768, 4096)
	areas := make([]*Area, clients)
	at := make([][2]uint32, clients)
	for i := range areas {
		areas[i] = NewArea(4136, 320, 4096)
		at[i] = [2]uint32{uint32(2000 + rng.IntN(28000)), uint32(2000 + rng.IntN(28000))}
	}
	near := make([]int32, 0, n)
	members := make([]int32, 0, n)
	step := func() int {
		for i := range n / 3 { // a third of the crowd walks
			ents.Xs[i] = uint32(int(ents.Xs[i])+rng.IntN(17)-8) % 32768
		}
		g.Build(ents.Xs, ents.Ys)
		total := 0
		for i, a := range areas {
			if byQuery {
				members = a.Query(members[:0], g, ents, at[i][0], at[i][1])
			} else {
				near = g.Query(near[:0], at[i][0], at[i][1], a.Reach())
				members = a.Update(members[:0], ents, near, at[i][0], at[i][1])
			}
			total += len(members)
		}
		return total
	}
	for range 10 {
		step()
	}
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		total += step()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*clients), "ns/client")
	b.ReportMetric(float64(total)/float64(b.N*clients), "members/client")
}

// refArea is the area's rule written plainly: last update's members by slot
// with their generation.
type refArea struct {
	radius uint32
	member map[uint16]uint16
}

func (r *refArea) update(ents *Entities, near []int32, x, y uint32) []int32 {
	var out []int32
	next := make(map[uint16]uint16)
	for _, e := range near {
		s, gen := ents.Slots[e], ents.Generations[e]
		g, was := r.member[s]
		if dist2(ents.Xs[e], ents.Ys[e], x, y) <= uint64(r.radius)*uint64(r.radius) || (was && g == gen) {
			out = append(out, e)
			next[s] = gen
		}
	}
	r.member = next
	return out
}

// Area.Update keeps exactly the members, in the order of near, that the
// plain rule keeps, over walks, slot reuse with new generations and resets,
// and Area.Query the same from the grid, in row order.
func TestAreaMatchesPlainRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for run := range 20 {
		const slots = 300
		ents := &Entities{}
		gens := make([]uint16, slots)
		xs, ys := make([]uint32, slots), make([]uint32, slots)
		alive := make([]bool, slots)
		for s := range slots {
			xs[s], ys[s] = uint32(rng.IntN(4000)), uint32(rng.IntN(4000))
			alive[s] = rng.IntN(3) != 0
		}
		radius, margin := uint32(200+rng.IntN(600)), uint32(rng.IntN(200))
		a := NewArea(radius, margin, slots)
		b := NewArea(radius, margin, slots) // the same, by Query
		ref := &refArea{radius: radius}
		g := NewGrid(4000, uint32(100+rng.IntN(500)))
		cx, cy := uint32(2000), uint32(2000)
		for step := range 200 {
			for s := range slots {
				switch r := rng.IntN(100); {
				case r < 2:
					alive[s] = !alive[s]
					if alive[s] {
						gens[s] = (gens[s] + 1) % 4
					}
				case r < 40:
					xs[s] = uint32(max(0, min(3999, int(xs[s])+rng.IntN(81)-40)))
					ys[s] = uint32(max(0, min(3999, int(ys[s])+rng.IntN(81)-40)))
				}
			}
			ents.Slots, ents.Generations, ents.Xs, ents.Ys = ents.Slots[:0], ents.Generations[:0], ents.Xs[:0], ents.Ys[:0]
			for s := range slots {
				if alive[s] {
					ents.Slots = append(ents.Slots, uint16(s))
					ents.Generations = append(ents.Generations, gens[s])
					ents.Xs = append(ents.Xs, xs[s])
					ents.Ys = append(ents.Ys, ys[s])
				}
			}
			cx = uint32(max(0, min(3999, int(cx)+rng.IntN(61)-30)))
			cy = uint32(max(0, min(3999, int(cy)+rng.IntN(61)-30)))
			if rng.IntN(60) == 0 {
				a.Reset()
				b.Reset()
				ref.member = nil
			}
			g.Build(ents.Xs, ents.Ys)
			near := g.Query(nil, cx, cy, a.Reach())
			got := a.Update(nil, ents, near, cx, cy)
			want := ref.update(ents, near, cx, cy)
			if !slices.Equal(got, want) {
				t.Fatalf("run %d step %d: members %v, the plain rule keeps %v", run, step, got, want)
			}
			prefix := []int32{-7} // Query appends, in row order
			want = slices.Sorted(slices.Values(want))
			if got := b.Query(prefix, g, ents, cx, cy); !slices.Equal(got[1:], want) || got[0] != -7 {
				t.Fatalf("run %d step %d: Query gives %v, the plain rule keeps %v", run, step, got, want)
			}
		}
	}
}
