package snapshot

import (
	"slices"
	"testing"
)

// Compare lists the gone, the new (a reused slot is both) and the changed
// survivors with their fields and places.
func TestChangesCompare(t *testing.T) {
	s := MustSchema(4, 2, 8, Field{Name: "x", Bits: 4}, Field{Name: "flag", Bits: 1})
	base, cur := New(s), New(s)
	for _, e := range []struct {
		id  EntityID
		row []uint32
	}{{EntityID{1, 0}, []uint32{3, 0}}, {EntityID{2, 0}, []uint32{4, 1}}, {EntityID{3, 0}, []uint32{5, 0}}, {EntityID{5, 0}, []uint32{6, 1}}, {EntityID{7, 0}, []uint32{7, 0}}} {
		if err := base.Append(e.id, e.row...); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range []struct {
		id  EntityID
		row []uint32
	}{{EntityID{1, 0}, []uint32{3, 0}}, {EntityID{2, 1}, []uint32{4, 1}}, {EntityID{3, 0}, []uint32{5, 1}}, {EntityID{4, 0}, []uint32{1, 0}}, {EntityID{7, 0}, []uint32{9, 1}}, {EntityID{9, 0}, []uint32{2, 0}}} {
		if err := cur.Append(e.id, e.row...); err != nil {
			t.Fatal(err)
		}
	}
	var c Changes
	c.Changed = append(c.Changed, Change{}) // left from before: Compare starts afresh
	c.Compare(base, cur)
	if want := []int32{1, 3}; !slices.Equal(c.Removed, want) {
		t.Errorf("removed %v, want %v", c.Removed, want)
	}
	if want := []int32{1, 3, 5}; !slices.Equal(c.New, want) {
		t.Errorf("new %v, want %v", c.New, want)
	}
	want := []Change{{Base: 2, Cur: 2, Survivor: 1, Fields: 0b10}, {Base: 4, Cur: 4, Survivor: 2, Fields: 0b11}}
	if !slices.Equal(c.Changed, want) {
		t.Errorf("changed %+v, want %+v", c.Changed, want)
	}
}
