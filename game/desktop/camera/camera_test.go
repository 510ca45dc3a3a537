package camera

import (
	"testing"

	"github.com/sightline-game/sightline/game/arena"
)

// TestFollowHoldsTheViewInsideTheWorld follows points in the middle, at
// the edges and in the corners of the arena: the followed point is drawn
// where the camera puts it, the screen shows no void, and the view stays
// inside the world.
func TestFollowHoldsTheViewInsideTheWorld(t *testing.T) {
	const w, h = 1280, 720
	const s = arena.WorldSize
	for _, tc := range []struct {
		name string
		x, y float64
		// want: the followed point on screen
		sx, sy float64
	}{
		{"middle", s / 2, s / 2, w / 2, h / 2},
		{"top-left corner", 30, 40, 30, 40},
		{"bottom-right corner", s - 10, s - 20, w - 10, h - 20},
		{"left edge", 100, 2000, 100, h / 2},
		{"top edge", 2000, 100, w / 2, 100},
		{"right edge", s - 300, 2000, w - 300, h / 2},
		{"bottom edge, just inside the clamp", 2000, s - h/2, w / 2, h / 2},
		{"past the world (a stale position)", -50, s + 80, -50, h + 80},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Camera{W: w, H: h}
			c.Follow(tc.x, tc.y)
			if sx, sy := c.ToScreen(tc.x, tc.y); sx != tc.sx || sy != tc.sy {
				t.Errorf("followed point drawn at (%v, %v), want (%v, %v)", sx, sy, tc.sx, tc.sy)
			}
			if c.X < 0 || c.Y < 0 || c.X+c.W > s || c.Y+c.H > s {
				t.Errorf("view (%v, %v)-(%v, %v) leaves the world 0..%v", c.X, c.Y, c.X+c.W, c.Y+c.H, s)
			}
			for i, r := range c.Outside() {
				if r[2] > 0 && r[3] > 0 {
					t.Errorf("void rectangle %d on screen: %v", i, r)
				}
			}
			x0, y0, x1, y1 := c.InWorld()
			if x0 != c.X || y0 != c.Y || x1-x0 != w || y1-y0 != h {
				t.Errorf("in the world: (%v, %v)-(%v, %v), want the whole screen", x0, y0, x1, y1)
			}
		})
	}
}

// TestFollowCentresASmallWorld follows a point in a world narrower and
// shorter than the screen: the world sits in the screen's middle wherever
// the point is, with the void around it.
func TestFollowCentresASmallWorld(t *testing.T) {
	c := Camera{W: 1280, H: 720, World: 600}
	for _, p := range [][2]float64{{10, 10}, {300, 300}, {590, 590}} {
		c.Follow(p[0], p[1])
		if ox, oy := c.ToScreen(0, 0); ox != 340 || oy != 60 {
			t.Errorf("following %v: the world's corner drawn at (%v, %v), want (340, 60)", p, ox, oy)
		}
		o := c.Outside()
		got := [4]float64{o[0][2], o[1][2], o[2][3], o[3][3]}
		if want := [4]float64{340, 340, 60, 60}; got != want {
			t.Errorf("following %v: void left, right, top, bottom = %v, want %v", p, got, want)
		}
		if x0, y0, x1, y1 := c.InWorld(); x0 != 0 || y0 != 0 || x1 != 600 || y1 != 600 {
			t.Errorf("following %v: in the world (%v, %v)-(%v, %v), want the whole world", p, x0, y0, x1, y1)
		}
	}
	// An upright screen over a world wider than it and shorter: followed
	// across, centred up and down.
	c = Camera{W: 720, H: 1280, World: 1000}
	c.Follow(500, 20)
	if c.X != 140 || c.Y != -140 {
		t.Errorf("upright screen over a 1000 px world: view at (%v, %v), want (140, -140)", c.X, c.Y)
	}
	c.Follow(900, 20)
	if c.X != 280 || c.Y != -140 {
		t.Errorf("upright screen over a 1000 px world, at its right: view at (%v, %v), want (280, -140)", c.X, c.Y)
	}
}

func TestVisible(t *testing.T) {
	c := Camera{W: 1280, H: 720}
	c.Follow(100, 100)
	if c.Visible(-1280, 100, 10) {
		t.Error("a point a screen's width left of the world is visible")
	}
	if !c.Visible(1285, 100, 10) {
		t.Error("a circle reaching over the screen's right edge is not visible")
	}
}
