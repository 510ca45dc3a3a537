package view

import (
	"cmp"
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
