package touch

import (
	"math"
	"testing"
)

func TestScreenKeepsTheShortSide(t *testing.T) {
	for _, c := range []struct{ ow, oh, w, h int }{
		{1280, 720, 1280, 720}, // the desktop window
		{640, 360, 1280, 720},  // a phone held sideways
		{360, 640, 720, 1280},  // a phone held upright
		{1080, 2340, 720, 1280},
		{500, 500, 1280, 720},
	} {
		if w, h := Screen(c.ow, c.oh); w != c.w || h != c.h {
			t.Errorf("Screen(%d, %d) = %dx%d, want %dx%d", c.ow, c.oh, w, h, c.w, c.h)
		}
	}
}

// Every control is on the screen, clear of the others and of the bottom
// 64 px (the health bar), in both orientations.
func TestLayoutFits(t *testing.T) {
	for _, s := range [][2]float64{{1280, 720}, {720, 1280}} {
		l := NewLayout(s[0], s[1])
		circleRect := func(c Circle) Rect { return Rect{c.X - c.R, c.Y - c.R, 2 * c.R, 2 * c.R} }
		stick := func(p Point) Rect { return Rect{p.X - l.Radius, p.Y - l.Radius, 2 * l.Radius, 2 * l.Radius} }
		named := map[string]Rect{
			"move": stick(l.MoveRest), "aim": stick(l.AimRest), "dash": circleRect(l.Dash),
			"scores": l.Scores, "chat": l.Chat, "menu": l.Menu,
		}
		for n, r := range named {
			if r.X < 0 || r.Y < 0 || r.X+r.W > l.W || r.Y+r.H > l.H-64 {
				t.Errorf("%vx%v: %s at %+v is off the screen or over the health bar", s[0], s[1], n, r)
			}
			for m, q := range named {
				if n < m && overlap(r, q) {
					t.Errorf("%vx%v: %s %+v overlaps %s %+v", s[0], s[1], n, r, m, q)
				}
			}
		}
		if l.MoveRest.X >= l.W/2 || l.AimRest.X < l.W/2 || l.MoveRest.Y <= l.Top || l.AimRest.Y <= l.Top {
			t.Errorf("%vx%v: the sticks rest outside their zones: %+v %+v", s[0], s[1], l.MoveRest, l.AimRest)
		}
		last := l.ChatRows[QuickCount-1]
		if l.ChatPanel.X < 0 || l.ChatPanel.X+l.ChatPanel.W > l.W || last.Y+last.H > l.ChatPanel.Y+l.ChatPanel.H || l.ChatPanel.Y+l.ChatPanel.H > l.H {
			t.Errorf("%vx%v: the chat list %+v (last row %+v) does not fit", s[0], s[1], l.ChatPanel, last)
		}
		if l.Radius != 90 {
			t.Errorf("%vx%v: stick radius %v, want 90 in both orientations", s[0], s[1], l.Radius)
		}
	}
}

func overlap(a, b Rect) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestInactiveUntilTouched(t *testing.T) {
	var p Pad
	l := NewLayout(1280, 720)
	if out := p.Update(l, nil); p.Active || out != (Output{}) {
		t.Fatalf("no touch: active %v, %+v", p.Active, out)
	}
	p.Update(l, []Touch{{ID: 1, X: 640, Y: 20}})
	if !p.Active {
		t.Fatal("a touch did not activate the pad")
	}
	if p.Update(l, nil); !p.Active {
		t.Fatal("the pad went away when the finger lifted")
	}
}

func TestMoveStickFloatsAndClamps(t *testing.T) {
	var p Pad
	l := NewLayout(720, 1280)
	p.Update(l, []Touch{{ID: 7, X: 200, Y: 900}})
	if !p.Move.Held || p.Move.Base != (Point{200, 900}) {
		t.Fatalf("the move stick did not land under the finger: %+v", p.Move)
	}
	out := p.Update(l, []Touch{{ID: 7, X: 200 + l.Radius/2, Y: 900}})
	if !near(out.MoveX, 0.5) || !near(out.MoveY, 0) {
		t.Errorf("half way right: move %v,%v, want 0.5,0", out.MoveX, out.MoveY)
	}
	if out.AimX != 1 || out.AimY != 0 || out.Fire {
		t.Errorf("moving right faces right without firing: aim %v,%v fire %v", out.AimX, out.AimY, out.Fire)
	}
	out = p.Update(l, []Touch{{ID: 7, X: 200, Y: 900 - 5*l.Radius}})
	if !near(out.MoveX, 0) || !near(out.MoveY, -1) {
		t.Errorf("far up: move %v,%v, want 0,-1 (clamped)", out.MoveX, out.MoveY)
	}
	out = p.Update(l, nil)
	if out.MoveX != 0 || out.MoveY != 0 || p.Move.Held {
		t.Errorf("lifted: move %v,%v held %v", out.MoveX, out.MoveY, p.Move.Held)
	}
	if !near(out.AimX, 0) || !near(out.AimY, -1) {
		t.Errorf("lifted: the player should keep facing up, aim %v,%v", out.AimX, out.AimY)
	}
}

func TestAimStickFiresPastThreshold(t *testing.T) {
	var p Pad
	l := NewLayout(1280, 720)
	x, y := 1000.0, 500.0
	p.Update(l, []Touch{{ID: 3, X: x, Y: y}})
	if !p.Aim.Held {
		t.Fatalf("a finger in the right half did not take the aim stick: %+v", p)
	}
	out := p.Update(l, []Touch{{ID: 3, X: x - 0.4*l.Radius, Y: y}})
	if out.Fire || out.AimX != -1 || out.AimY != 0 {
		t.Errorf("leaning 0.4 left: aim %v,%v fire %v; want -1,0 without fire", out.AimX, out.AimY, out.Fire)
	}
	out = p.Update(l, []Touch{{ID: 3, X: x - 0.6*l.Radius, Y: y + 0.6*l.Radius}})
	if !out.Fire || !near(out.AimX, -math.Sqrt2/2) || !near(out.AimY, math.Sqrt2/2) {
		t.Errorf("pushed down-left: aim %v,%v fire %v; want the diagonal, firing", out.AimX, out.AimY, out.Fire)
	}
	if out.MoveX != 0 || out.MoveY != 0 {
		t.Errorf("the aim stick moved the player: %v,%v", out.MoveX, out.MoveY)
	}
	if out = p.Update(l, nil); out.Fire {
		t.Error("still firing after the finger lifted")
	}
}

// Two thumbs at once: one moves, the other aims the other way; a third
// finger on the right half neither takes the aim stick nor breaks it.
func TestBothSticksAtOnce(t *testing.T) {
	var p Pad
	l := NewLayout(1280, 720)
	p.Update(l, []Touch{{ID: 1, X: 150, Y: 500}, {ID: 2, X: 1100, Y: 500}})
	out := p.Update(l, []Touch{{ID: 1, X: 150, Y: 500 + l.Radius}, {ID: 2, X: 1100, Y: 500 - l.Radius}, {ID: 9, X: 900, Y: 300}})
	if !near(out.MoveY, 1) || !near(out.AimY, -1) || !out.Fire {
		t.Errorf("move down, aim up: %+v", out)
	}
	if p.Aim.ID != 2 {
		t.Errorf("the third finger took the aim stick: %+v", p.Aim)
	}
	// The aim finger lifts: the player faces where it walks again.
	out = p.Update(l, []Touch{{ID: 1, X: 150, Y: 500 + l.Radius}, {ID: 9, X: 900, Y: 300}})
	if out.Fire || !near(out.AimY, 1) {
		t.Errorf("after the aim finger lifted: %+v", out)
	}
}

func TestButtons(t *testing.T) {
	var p Pad
	l := NewLayout(720, 1280)
	tap := func(id int, at Point) Output {
		p.Update(l, []Touch{{ID: id, X: at.X, Y: at.Y}})
		return p.Update(l, nil)
	}
	if out := tap(1, l.Scores.Center()); !out.Scoreboard {
		t.Error("SCORES did not show the scoreboard")
	}
	if out := tap(2, l.Scores.Center()); out.Scoreboard {
		t.Error("SCORES again did not hide the scoreboard")
	}
	// Dash is held while the finger stays, even when it slides off.
	out := p.Update(l, []Touch{{ID: 3, X: l.Dash.X, Y: l.Dash.Y}})
	if !out.Dash || p.Move.Held || p.Aim.Held {
		t.Errorf("DASH: %+v (move %v aim %v)", out, p.Move.Held, p.Aim.Held)
	}
	if out = p.Update(l, []Touch{{ID: 3, X: l.Dash.X - 300, Y: l.Dash.Y}}); !out.Dash {
		t.Error("DASH let go while the finger stayed down")
	}
	if out = p.Update(l, nil); out.Dash {
		t.Error("DASH still held after the finger lifted")
	}
	// Chat: open, pick the third message.
	tap(4, l.Chat.Center())
	if !p.ChatOpen {
		t.Fatal("CHAT did not open the list")
	}
	p.Update(l, []Touch{{ID: 5, X: l.ChatRows[2].Center().X, Y: l.ChatRows[2].Center().Y}})
	if p.ChatOpen {
		t.Error("the list stayed open after a pick")
	}
	// The pick was reported on the frame it landed: do it again and look.
	tap(6, l.Chat.Center())
	out = p.Update(l, []Touch{{ID: 7, X: l.ChatRows[2].Center().X, Y: l.ChatRows[2].Center().Y}})
	if out.Say != QuickMessages()[2] {
		t.Errorf("picked %q, want %q", out.Say, QuickMessages()[2])
	}
	if p.Move.Held || p.Aim.Held {
		t.Error("a tap on the list started a stick")
	}
	// A tap outside closes the list and says nothing.
	tap(8, l.Chat.Center())
	if out = p.Update(l, []Touch{{ID: 9, X: 10, Y: l.H - 10}}); out.Say != "" || p.ChatOpen || p.Move.Held {
		t.Errorf("a tap outside the list: %+v, open %v, move %v", out, p.ChatOpen, p.Move.Held)
	}
	// The top bar starts no stick.
	p.Update(l, nil)
	if p.Update(l, []Touch{{ID: 10, X: l.W - 20, Y: 20}}); p.Aim.Held || p.Move.Held {
		t.Error("a touch in the top bar started a stick")
	}
	// MENU: asks for the pause menu on the frame it lands, once.
	p.Update(l, nil)
	m := l.Menu.Center()
	if out = p.Update(l, []Touch{{ID: 11, X: m.X, Y: m.Y}}); !out.Menu || p.Move.Held || p.Aim.Held || p.ChatOpen || p.Scoreboard {
		t.Errorf("MENU: %+v (move %v aim %v chat %v scores %v)", out, p.Move.Held, p.Aim.Held, p.ChatOpen, p.Scoreboard)
	}
	if out = p.Update(l, []Touch{{ID: 11, X: m.X, Y: m.Y}}); out.Menu {
		t.Error("MENU asked again while the finger stayed down")
	}
	if out = p.Update(l, nil); out.Menu {
		t.Error("MENU asked again when the finger lifted")
	}
}
