package view

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortByRow orders candidates as a comparison sort by row would, keeps
// each candidate's fields, leaves its scratch clean for the next view, and
// keeps one candidate per row.
func TestSortByRow(t *testing.T) {
	sh := &Shared{}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		rows := 1 + rng.IntN(700)
		var cands []Candidate
		for _, r := range rng.Perm(rows)[:rng.IntN(rows+1)] {
			cands = append(cands, Candidate{Row: int32(r), Priority: float32(rng.IntN(100)), Must: rng.IntN(20) == 0})
		}
		want := slices.Clone(cands)
		slices.SortFunc(want, func(a, b Candidate) int { return cmp.Compare(a.Row, b.Row) })
		got := sh.sortByRow(cands, rows)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (%d rows): got %v, want %v", round, rows, got, want)
		}
	}
	// In order already, or empty: as they are.
	for _, in := range [][]Candidate{{{Row: 2}, {Row: 5, Priority: 3}, {Row: 9, Must: true}}, {{Row: 4}}, {}} {
		if got := sh.sortByRow(slices.Clone(in), 10); !slices.Equal(got, in) {
			t.Fatalf("in order: %v, want %v", got, in)
		}
	}
	// The same row twice: the later candidate stays, once.
	got := sh.sortByRow([]Candidate{{Row: 5, Priority: 1}, {Row: 2}, {Row: 5, Priority: 3}}, 10)
	if want := []Candidate{{Row: 2}, {Row: 5, Priority: 3}}; !slices.Equal(got, want) {
		t.Fatalf("with a row twice: %v, want %v", got, want)
	}
}

func BenchmarkSortByRow(b *testing.B) {
	sh := &Shared{}
	rng := rand.New(rand.NewPCG(3, 4))
	const rows = 600
	var cands []Candidate
	for _, r := range rng.Perm(rows)[:100] {
		cands = append(cands, Candidate{Row: int32(r), Priority: 1})
	}
	shuffled := slices.Clone(cands)
	b.ReportAllocs()
	for b.Loop() {
		copy(cands, shuffled)
		sh.sortByRow(cands, rows)
	}
}

// oldChoose is the budget's rule written plainly: every item (changed or
// new) by key, highest first (ties by position), chosen if it must go or
// fits what is left.
func oldChoose(items []item, budget int32) (chosen []bool, order []int32) {
	for k := range items {
		order = append(order, int32(k))
	}
	slices.SortFunc(order, func(a, b int32) int {
		ka, kb := items[a].key, items[b].key
		if ka != kb {
			return cmp.Compare(kb, ka)
		}
		return cmp.Compare(a, b)
	})
	chosen = make([]bool, len(items))
	for _, k := range order {
		if it := items[k]; it.must || it.cost <= budget {
			chosen[k] = true
			budget -= it.cost
		}
	}
	return chosen, order
}

// choose (which skips the sort when everything fits) and dropLowest (which
// sorts if choose did not) pick what the plain rule picks, in its order,
// over keys with ties, zeros of both signs and infinities. (NaN keys, which
// no priority should be, sort below every number both ways, but the plain
// rule leaves two of them in either order.)
func TestChooseMatchesSortedRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	odd := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), 1, 1, 2.5, -3, math.MaxFloat32, math.SmallestNonzeroFloat32}
	fitted, bound := 0, 0
	for round := range 2000 {
		s := &Sender{scratch: &scratch{}}
		var m merged
		n := rng.IntN(60)
		for k := range n {
			it := item{at: int32(k), slot: uint16(k), isNew: rng.IntN(2) == 0, cost: int32(1 + rng.IntN(90)), must: rng.IntN(15) == 0}
			if rng.IntN(2) == 0 {
				it.key = odd[rng.IntN(len(odd))]
			} else {
				it.key = float32(rng.IntN(8)) * 0.5
			}
			m.order = append(m.order, int32(k))
			m.total += int64(it.cost)
			m.items = append(m.items, it)
		}
		budget := int32(rng.IntN(2500)) - 200
		wantChosen, wantOrder := oldChoose(m.items, budget)
		c := s.choose(m, budget)
		if c.sorted {
			bound++
		} else {
			fitted++
		}
		for k, it := range m.items {
			if it.chosen != wantChosen[k] {
				t.Fatalf("round %d (budget %d, %d items): item %d chosen %v, the rule says %v", round, budget, n, k, it.chosen, wantChosen[k])
			}
		}
		excess := rng.IntN(40)
		s.dropLowest(m, c, excess)
		if !slices.Equal(m.order, wantOrder) {
			t.Fatalf("round %d: order %v, the rule's %v", round, m.order, wantOrder)
		}
	}
	if fitted < 100 || bound < 100 {
		t.Fatalf("%d rounds fitted the budget and %d did not: the rounds miss a path", fitted, bound)
	}
}

// orderedBits orders floats as cmp.Compare does.
func TestOrderedBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	odd := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), -float32(math.NaN()), 1, -1, math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32}
	pick := func() float32 {
		if rng.IntN(2) == 0 {
			return odd[rng.IntN(len(odd))]
		}
		return math.Float32frombits(rng.Uint32())
	}
	for range 100000 {
		a, b := pick(), pick()
		if got, want := cmp.Compare(orderedBits(a), orderedBits(b)), cmp.Compare(a, b); got != want {
			t.Fatalf("%v vs %v: ordered bits compare %d, cmp.Compare %d", a, b, got, want)
		}
	}
}
