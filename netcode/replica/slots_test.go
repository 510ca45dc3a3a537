package replica

import (
	"slices"
	"testing"
)

func TestFreeSlots(t *testing.T) {
	type op struct {
		release int32 // >= 0: release this slot; -1: take one
		want    int32 // for a take: the slot it must return
	}
	tests := []struct {
		name    string
		reset   int // slots that exist, all free, before ops (-1: start empty)
		ops     []op
		wantLen int // len(slots) at the end
	}{
		{"empty grows", -1, []op{{-1, 0}, {-1, 1}, {-1, 2}}, 3},
		{"released first, newest on top", -1, []op{{-1, 0}, {-1, 1}, {-1, 2}, {0, 0}, {2, 0}, {-1, 2}, {-1, 0}, {-1, 3}}, 4},
		{"reset takes from the top", 3, []op{{-1, 2}, {-1, 1}, {-1, 0}, {-1, 3}}, 4},
		{"reset of none", 0, []op{{-1, 0}}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var f freeSlots
			var slots []int
			if tc.reset >= 0 {
				slots = make([]int, tc.reset)
				f.reset(tc.reset)
			}
			for k, o := range tc.ops {
				if o.release >= 0 {
					f.release(o.release)
					continue
				}
				var i int32
				slots, i = takeSlot(&f, slots)
				if i != o.want {
					t.Fatalf("op %d: took slot %d, want %d", k, i, o.want)
				}
			}
			if len(slots) != tc.wantLen {
				t.Fatalf("len(slots) = %d, want %d", len(slots), tc.wantLen)
			}
		})
	}
}

func TestFreeSlotsResetForgetsReleases(t *testing.T) {
	var f freeSlots
	f.release(7)
	f.release(1)
	f.reset(2)
	if !slices.Equal(f.free, []int32{0, 1}) {
		t.Fatalf("free = %v, want [0 1]", f.free)
	}
}

func TestFreeSlotsNoAllocsWhenWarm(t *testing.T) {
	var f freeSlots
	slots := make([]int, 0, 4)
	f.reset(0)
	for range 4 {
		slots, _ = takeSlot(&f, slots)
	}
	for i := range int32(4) {
		f.release(i)
	}
	n := testing.AllocsPerRun(100, func() {
		var i int32
		slots, i = takeSlot(&f, slots)
		f.release(i)
	})
	if n != 0 {
		t.Fatalf("%v allocations per take+release", n)
	}
}
