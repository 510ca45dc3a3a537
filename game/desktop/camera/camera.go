// Package camera maps the world onto the screen: which part of the world
// the screen shows while it follows the player.
package camera

import "github.com/sightline-game/sightline/game/arena"

// Camera is the part of the world the screen shows: its top-left corner in
// world pixels and the screen's size. It keeps the point it follows (the
// player) at the screen's centre, even at the world's edge, so the HUD's
// panels in the corners never hide the player; past the edge the screen
// shows the void.
type Camera struct {
	X, Y float64 // world position of the screen's top-left corner
	W, H float64 // screen size in px (one world px is one screen px)
}

// Follow centres the camera on (x, y).
func (c *Camera) Follow(x, y float64) {
	c.X = x - c.W/2
	c.Y = y - c.H/2
}

// ToScreen converts a world position to screen coordinates.
func (c *Camera) ToScreen(x, y float64) (float64, float64) { return x - c.X, y - c.Y }

// Visible reports whether a circle of radius r at world (x, y) is on screen.
func (c *Camera) Visible(x, y, r float64) bool {
	return x+r >= c.X && x-r <= c.X+c.W && y+r >= c.Y && y-r <= c.Y+c.H
}

// Outside returns the screen rectangles (x, y, w, h) that lie past the
// world's edge, at most one per side; those with no area have w or h <= 0.
func (c *Camera) Outside() [4][4]float64 {
	left := max(-c.X, 0)
	right := max(c.X+c.W-arena.WorldSize, 0)
	top := max(-c.Y, 0)
	bottom := max(c.Y+c.H-arena.WorldSize, 0)
	return [4][4]float64{
		{0, 0, left, c.H},
		{c.W - right, 0, right, c.H},
		{left, 0, c.W - left - right, top},
		{left, c.H - bottom, c.W - left - right, bottom},
	}
}

// InWorld returns the part of the world the screen shows, as world
// corners (x0, y0) and (x1, y1): the view without the void past the edge.
func (c *Camera) InWorld() (x0, y0, x1, y1 float64) {
	return max(c.X, 0), max(c.Y, 0), min(c.X+c.W, arena.WorldSize), min(c.Y+c.H, arena.WorldSize)
}
