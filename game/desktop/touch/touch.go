// Package touch is the game's touch-screen controls, without a display: where
// the controls sit on a logical screen of any orientation (Layout), and a
// state machine (Pad) that turns the fingers on the screen, frame by frame,
// into what the player wants: a move stick, an aim stick that fires, a dash
// button, the scoreboard and a list of quick chat messages.
//
// The choices, for a phone:
//   - Both sticks float: a finger that lands in the left half of the screen
//     (below the top bar) puts the move stick under it, one that lands in the
//     right half puts the aim stick under it. When no finger holds them they
//     rest, drawn faintly, in the bottom corners.
//   - Twin-stick fire: the aim stick turns the player; pushed past FireAt of
//     its radius, it also fires. Without the aim stick the player faces where
//     it walks, and keeps its last aim when standing still.
//   - Dash is a button held down above and left of the aim stick's corner.
//   - SCORES toggles the scoreboard; CHAT opens a list of QuickMessages (a
//     canvas cannot summon a phone's on-screen keyboard): a tap on one says
//     it, a tap anywhere else closes the list. MENU opens the pause menu,
//     as Esc does, whose items and settings then take taps as clicks.
//
// Nothing shows until a finger touches the screen: mouse and keyboard
// players never see the controls.
package touch

import "math"

// The game's two logical screens: landscape and portrait.
const (
	Long  = 1280
	Short = 720
)

// Screen returns the logical screen for a window or page of outside size:
// 1280x720 in landscape (and for a square), 720x1280 in portrait. The short
// side is always 720 px of world, so a phone held either way sees as far
// across; the screen is scaled to fit, keeping its aspect ratio.
func Screen(outsideW, outsideH int) (w, h int) {
	if outsideH > outsideW {
		return Short, Long
	}
	return Long, Short
}

// The controls' behaviour.
const (
	// FireAt is how far (a fraction of the stick's radius) the aim stick
	// must be pushed to fire.
	FireAt = 0.55
	// AimDeadzone is how far the aim stick must lean to turn the player; a
	// move stick leaning this far turns it while the aim stick is free.
	AimDeadzone = 0.25
)

// QuickCount is how many quick messages the CHAT button offers.
const QuickCount = 6

// QuickMessages returns what the CHAT button offers to say.
func QuickMessages() [QuickCount]string {
	return [QuickCount]string{"gg", "nice shot!", "follow me", "need help!", "on my way", "oops, sorry"}
}

// Point is a position in logical px.
type Point struct{ X, Y float64 }

// Rect is a rectangle in logical px.
type Rect struct{ X, Y, W, H float64 }

// Contains reports whether (x, y) is inside r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Center returns r's centre.
func (r Rect) Center() Point { return Point{r.X + r.W/2, r.Y + r.H/2} }

// Circle is a round button.
type Circle struct{ X, Y, R float64 }

// Contains reports whether (x, y) is inside c, with a margin of a quarter
// of its radius: fingers are wider than the button's edge.
func (c Circle) Contains(x, y float64) bool {
	return math.Hypot(x-c.X, y-c.Y) <= c.R*1.25
}

// Layout is where the controls sit on a logical screen.
type Layout struct {
	W, H float64
	// Radius is a stick's: how far its knob travels from its base.
	Radius float64
	// MoveRest and AimRest are where the sticks are drawn when no finger
	// holds them.
	MoveRest, AimRest Point
	// Top is the top bar's height: a finger landing above it starts no stick.
	Top float64
	// Dash is the dash button; Scores, Chat and Menu the buttons top left.
	Dash               Circle
	Scores, Chat, Menu Rect
	// ChatRows are the quick messages' rows, while the list is open, and
	// ChatPanel the panel around them.
	ChatPanel Rect
	ChatRows  [QuickCount]Rect
}

// NewLayout places the controls on a w x h logical screen, sized from its
// short side so that they are the same size in either orientation. The
// bottom 64 px stay free for the health bar and the loadout.
func NewLayout(w, h float64) Layout {
	u := min(w, h)
	l := Layout{W: w, H: h, Radius: 0.125 * u, Top: 132}
	margin := 0.05 * u
	cx := margin + l.Radius + 20
	cy := h - 64 - margin - l.Radius
	l.MoveRest = Point{cx, cy}
	l.AimRest = Point{w - cx, cy}
	r := 0.075 * u
	l.Dash = Circle{X: l.AimRest.X - 1.9*l.Radius, Y: l.AimRest.Y - 1.1*l.Radius, R: r}
	l.Scores = Rect{X: 16, Y: 76, W: 132, H: 48}
	l.Chat = Rect{X: l.Scores.X + l.Scores.W + 12, Y: 76, W: 108, H: 48}
	l.Menu = Rect{X: l.Chat.X + l.Chat.W + 12, Y: 76, W: 108, H: 48}
	pw := min(560, w-40)
	rowH := 64.0
	ph := rowH*QuickCount + 24
	l.ChatPanel = Rect{X: (w - pw) / 2, Y: max(l.Top, (h-ph)/2-h/8), W: pw, H: ph}
	for i := range l.ChatRows {
		l.ChatRows[i] = Rect{X: l.ChatPanel.X + 12, Y: l.ChatPanel.Y + 12 + float64(i)*rowH, W: pw - 24, H: rowH - 6}
	}
	return l
}

// Touch is one finger on the screen this frame: its id (stable while the
// finger stays down) and where it is, in logical px.
type Touch struct {
	ID   int
	X, Y float64
}

// Stick is a virtual stick: where its base and knob are and which finger
// holds it.
type Stick struct {
	Held       bool
	ID         int // the finger's, while Held
	Base, Knob Point
	radius     float64
}

// Vector returns how far and which way the stick leans: (0, 0) when free,
// length 1 at its radius (y down, as on screen).
func (s Stick) Vector() (x, y float64) {
	if !s.Held || s.radius <= 0 {
		return 0, 0
	}
	return (s.Knob.X - s.Base.X) / s.radius, (s.Knob.Y - s.Base.Y) / s.radius
}

// follow moves the knob toward (x, y), no further than the radius.
func (s *Stick) follow(x, y float64) {
	dx, dy := x-s.Base.X, y-s.Base.Y
	if d := math.Hypot(dx, dy); d > s.radius {
		dx, dy = dx/d*s.radius, dy/d*s.radius
	}
	s.Knob = Point{s.Base.X + dx, s.Base.Y + dy}
}

// Output is what the fingers mean this frame.
type Output struct {
	// MoveX, MoveY are the move stick, -1..1 each (length at most 1).
	MoveX, MoveY float64
	// AimX, AimY is the way the player faces, a unit vector; (0, 0) until
	// a stick has leaned.
	AimX, AimY float64
	// Fire and Dash are held.
	Fire, Dash bool
	// Scoreboard is shown (SCORES toggles it).
	Scoreboard bool
	// Say is the quick message tapped this frame ("" if none).
	Say string
	// Menu is set the frame MENU is tapped: open the pause menu.
	Menu bool
}

// Pad is the touch controls' state from frame to frame. Its zero value is
// ready: inactive until the first touch.
type Pad struct {
	// Active is set by the first touch, and stays: the controls are drawn
	// and their output used from then on.
	Active bool
	// Move and Aim are the sticks.
	Move, Aim Stick
	// DashHeld is true while a finger that landed on DASH stays down.
	DashHeld bool
	// Scoreboard is shown; ChatOpen is the quick messages' list open.
	Scoreboard, ChatOpen bool

	dashID     int
	down       []int // finger ids down last frame
	aimX, aimY float64
}

// Update takes the fingers down this frame (all of them: a finger missing
// from touches has lifted) and returns what they mean.
func (p *Pad) Update(l Layout, touches []Touch) Output {
	var out Output
	if len(touches) > 0 {
		p.Active = true
	}
	p.Move.radius, p.Aim.radius = l.Radius, l.Radius
	// Fingers lifted.
	if p.Move.Held && !has(touches, p.Move.ID) {
		p.Move.Held = false
	}
	if p.Aim.Held && !has(touches, p.Aim.ID) {
		p.Aim.Held = false
	}
	if p.DashHeld && !has(touches, p.dashID) {
		p.DashHeld = false
	}
	for _, t := range touches {
		switch {
		case p.Move.Held && t.ID == p.Move.ID:
			p.Move.follow(t.X, t.Y)
		case p.Aim.Held && t.ID == p.Aim.ID:
			p.Aim.follow(t.X, t.Y)
		case !p.wasDown(t.ID):
			if s := p.press(l, t, &out); s != "" {
				out.Say = s
			}
		}
	}
	p.down = p.down[:0]
	for _, t := range touches {
		p.down = append(p.down, t.ID)
	}

	out.MoveX, out.MoveY = p.Move.Vector()
	ax, ay := p.Aim.Vector()
	switch {
	case math.Hypot(ax, ay) >= AimDeadzone:
		p.aimX, p.aimY = unit(ax, ay)
		out.Fire = math.Hypot(ax, ay) >= FireAt
	case !p.Aim.Held && math.Hypot(out.MoveX, out.MoveY) >= AimDeadzone:
		p.aimX, p.aimY = unit(out.MoveX, out.MoveY)
	}
	out.AimX, out.AimY = p.aimX, p.aimY
	out.Dash = p.DashHeld
	out.Scoreboard = p.Scoreboard
	return out
}

// press handles a finger that just landed; it returns the quick message it
// chose, if any, and notes a tap on MENU in out.
func (p *Pad) press(l Layout, t Touch, out *Output) string {
	if p.ChatOpen {
		p.ChatOpen = false
		for i, r := range l.ChatRows {
			if r.Contains(t.X, t.Y) {
				return QuickMessages()[i]
			}
		}
		return ""
	}
	switch {
	case l.Scores.Contains(t.X, t.Y):
		p.Scoreboard = !p.Scoreboard
	case l.Chat.Contains(t.X, t.Y):
		p.ChatOpen = true
	case l.Menu.Contains(t.X, t.Y):
		out.Menu = true
	case l.Dash.Contains(t.X, t.Y):
		p.DashHeld, p.dashID = true, t.ID
	case t.Y < l.Top:
		// The top bar: no stick starts there.
	case t.X < l.W/2 && !p.Move.Held:
		p.Move = Stick{Held: true, ID: t.ID, Base: Point{t.X, t.Y}, Knob: Point{t.X, t.Y}, radius: l.Radius}
	case t.X >= l.W/2 && !p.Aim.Held:
		p.Aim = Stick{Held: true, ID: t.ID, Base: Point{t.X, t.Y}, Knob: Point{t.X, t.Y}, radius: l.Radius}
	}
	return ""
}

func (p *Pad) wasDown(id int) bool {
	for _, d := range p.down {
		if d == id {
			return true
		}
	}
	return false
}

func has(ts []Touch, id int) bool {
	for _, t := range ts {
		if t.ID == id {
			return true
		}
	}
	return false
}

func unit(x, y float64) (float64, float64) {
	d := math.Hypot(x, y)
	return x / d, y / d
}
