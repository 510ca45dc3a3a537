package interest_test

import (
	"slices"
	"testing"

	"github.com/sightline-game/sightline/netcode/interest"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

func TestEntitiesLoad(t *testing.T) {
	s := snapshot.New(snapshot.MustSchema(8, 2, 0, snapshot.Field{Name: "h", Bits: 4}, snapshot.Field{Name: "x", Bits: 16}, snapshot.Field{Name: "y", Bits: 16}))
	copy(s.AppendUnchecked(snapshot.EntityID{Index: 3, Generation: 1}), []uint32{9, 100, 200})
	copy(s.AppendUnchecked(snapshot.EntityID{Index: 7, Generation: 2}), []uint32{5, 300, 400})
	e := interest.Entities{Slots: []uint16{1, 2, 3}, Generations: []uint16{0, 0, 0}, Xs: []uint32{1, 1, 1}, Ys: []uint32{1, 1, 1}}
	e.Load(s, 1, 2)
	want := interest.Entities{Slots: []uint16{3, 7}, Generations: []uint16{1, 2}, Xs: []uint32{100, 300}, Ys: []uint32{200, 400}}
	if !slices.Equal(e.Slots, want.Slots) || !slices.Equal(e.Generations, want.Generations) || !slices.Equal(e.Xs, want.Xs) || !slices.Equal(e.Ys, want.Ys) {
		t.Errorf("loaded %+v, want %+v", e, want)
	}
}
