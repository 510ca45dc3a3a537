package desktop

import "github.com/sightline-game/sightline/game/arena"

// Camera is the part of the world the screen shows: its top-left corner in
// world pixels and the screen's size. It follows a point (the player) and
// never shows past the world's edge.
type Camera struct {
	X, Y float64 // world position of the screen's top-left corner
	W, H float64 // screen size in px (one world px is one screen px)
}

// Follow centres the camera on (x, y), clamped so that the screen stays
// inside the world (centred on the world when the screen is larger).
func (c *Camera) Follow(x, y float64) {
	c.X = clampView(x-c.W/2, c.W)
	c.Y = clampView(y-c.H/2, c.H)
}

func clampView(v, size float64) float64 {
	if size >= arena.WorldSize {
		return (arena.WorldSize - size) / 2
	}
	return min(max(v, 0), arena.WorldSize-size)
}

// ToScreen converts a world position to screen coordinates.
func (c *Camera) ToScreen(x, y float64) (float64, float64) { return x - c.X, y - c.Y }

// Visible reports whether a circle of radius r at world (x, y) is on screen.
func (c *Camera) Visible(x, y, r float64) bool {
	return x+r >= c.X && x-r <= c.X+c.W && y+r >= c.Y && y-r <= c.Y+c.H
}
