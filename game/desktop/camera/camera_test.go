package camera

import (
	"testing"

	"github.com/sightline-game/sightline/game/arena"
)

func TestFollowKeepsThePointCentred(t *testing.T) {
	const w, h = 1280, 720
	for _, tc := range []struct {
		name string
		x, y float64
		// want: the void's width on the left and right, height on top and bottom
		left, right, top, bottom float64
	}{
		{"middle", arena.WorldSize / 2, arena.WorldSize / 2, 0, 0, 0, 0},
		{"top-left corner", 30, 40, w/2 - 30, 0, h/2 - 40, 0},
		{"bottom-right corner", arena.WorldSize - 10, arena.WorldSize - 20, 0, w/2 - 10, 0, h/2 - 20},
		{"left edge", 100, 2000, w/2 - 100, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Camera{W: w, H: h}
			c.Follow(tc.x, tc.y)
			if sx, sy := c.ToScreen(tc.x, tc.y); sx != w/2 || sy != h/2 {
				t.Errorf("followed point drawn at (%v, %v), want the centre (%v, %v)", sx, sy, w/2, h/2)
			}
			if !c.Visible(tc.x, tc.y, 0) {
				t.Error("followed point not visible")
			}
			o := c.Outside()
			got := [4]float64{o[0][2], o[1][2], o[2][3], o[3][3]}
			want := [4]float64{tc.left, tc.right, tc.top, tc.bottom}
			if got != want {
				t.Errorf("void left, right, top, bottom = %v, want %v", got, want)
			}
			x0, y0, x1, y1 := c.InWorld()
			if x1-x0 != w-tc.left-tc.right || y1-y0 != h-tc.top-tc.bottom || x0 < 0 || y0 < 0 || x1 > arena.WorldSize || y1 > arena.WorldSize {
				t.Errorf("in the world: (%v, %v)-(%v, %v), want the screen less the void", x0, y0, x1, y1)
			}
			// The void's side rectangles lie at the screen's sides; the top
			// and bottom ones span what is between them.
			if o[1][0]+o[1][2] != w || o[3][1]+o[3][3] != h {
				t.Errorf("right or bottom void does not end at the screen's edge: %v", o)
			}
			if o[2][0] != tc.left || o[2][2] != w-tc.left-tc.right {
				t.Errorf("top void spans x %v..%v, want %v..%v", o[2][0], o[2][0]+o[2][2], tc.left, w-tc.right)
			}
		})
	}
	c := Camera{W: w, H: h}
	c.Follow(100, 100)
	if c.Visible(-w, 100, 10) {
		t.Error("a point a screen's width left of the world is visible")
	}
}
