// Package camera maps the world onto the screen: which part of the world
// the screen shows while it follows the player.
package camera

import "github.com/sightline-game/sightline/game/arena"

// Camera is the part of the world the screen shows: its top-left corner in
// world pixels and the screen's size. It follows a point (the player),
// keeping it at the screen's centre while the world reaches past every
// edge of the screen; near the world's edge it stops at the edge, so the
// screen shows the arena and never the void past it, and the player moves
// off the centre towards that edge. Along an axis where the world is
// smaller than the screen, the world is centred, with the void on both
// sides.
type Camera struct {
	X, Y float64 // world position of the screen's top-left corner
	W, H float64 // screen size in px (one world px is one screen px)
	// World is the side of the square world in px (0: arena.WorldSize).
	World float64
}

// size returns the world's side.
func (c *Camera) size() float64 {
	if c.World > 0 {
		return c.World
	}
	return arena.WorldSize
}

// Follow points the camera at (x, y): centred on it, held inside the world.
func (c *Camera) Follow(x, y float64) {
	c.X = clampAxis(x-c.W/2, c.W, c.size())
	c.Y = clampAxis(y-c.H/2, c.H, c.size())
}

// clampAxis returns the view's start along one axis, a view of length view
// over a world of length world that would start at want: within 0 and
// world-view, or centred when the world is the shorter.
func clampAxis(want, view, world float64) float64 {
	if world <= view {
		return (world - view) / 2
	}
	return max(0, min(want, world-view))
}

// ToScreen converts a world position to screen coordinates.
func (c *Camera) ToScreen(x, y float64) (float64, float64) { return x - c.X, y - c.Y }

// Visible reports whether a circle of radius r at world (x, y) is on screen.
func (c *Camera) Visible(x, y, r float64) bool {
	return x+r >= c.X && x-r <= c.X+c.W && y+r >= c.Y && y-r <= c.Y+c.H
}

// Outside returns the screen rectangles (x, y, w, h) that lie past the
// world's edge, at most one per side; those with no area have w or h <= 0.
// Once Follow has placed the camera there are none, but on an axis where
// the world is smaller than the screen.
func (c *Camera) Outside() [4][4]float64 {
	s := c.size()
	left := max(-c.X, 0)
	right := max(c.X+c.W-s, 0)
	top := max(-c.Y, 0)
	bottom := max(c.Y+c.H-s, 0)
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
	s := c.size()
	return max(c.X, 0), max(c.Y, 0), min(c.X+c.W, s), min(c.Y+c.H, s)
}
