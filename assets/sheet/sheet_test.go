package sheet

import "testing"

func TestWallMask(t *testing.T) {
	for _, c := range []struct {
		n, e, s, w bool
		want       int
	}{
		{false, false, false, false, 0},
		{true, false, false, false, WallN},
		{false, true, false, false, WallE},
		{false, false, true, false, WallS},
		{false, false, false, true, WallW},
		{true, true, true, true, 15},
		{true, false, true, false, WallN | WallS},
	} {
		if got := WallMask(c.n, c.e, c.s, c.w); got != c.want {
			t.Errorf("WallMask(%v, %v, %v, %v) = %d, want %d", c.n, c.e, c.s, c.w, got, c.want)
		}
	}
}
