package desktop

import (
	"image/color"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/sightline-game/sightline/game/desktop/controls"
	"github.com/sightline-game/sightline/game/desktop/text"
	"github.com/sightline-game/sightline/game/desktop/touch"
)

// touchState is the touch controls (package touch has their logic): where
// they sit on the logical screen, their state and this frame's output.
type touchState struct {
	layout touch.Layout
	pad    touch.Pad
	out    touch.Output
}

// The touch controls' colours. The dash button is nearly opaque, so that it
// reads on any floor (and a test can find it in a screenshot).
var (
	colTouchBase = color.RGBA{0xec, 0xef, 0xf4, 0xff}
	colTouchDash = color.RGBA{0xff, 0xc8, 0x3d, 0xff}
)

// readTouch reads the fingers on the screen and, once touch has been used,
// merges what they mean into st: the sticks lead the gamepad's, fire, dash
// and the scoreboard add to the keys'. A quick message tapped is sent.
// While the pause menu is open the fingers are its (uiReader), and the
// controls see none: every stick and button is let go.
func (g *Game) readTouch(st *controls.State, now time.Time) {
	t := &g.touch
	var fingers []touch.Touch
	if !g.pause.open() {
		fingers = g.input.Touches()
	}
	t.out = t.pad.Update(t.layout, fingers)
	if !t.pad.Active {
		return
	}
	o := t.out
	if o.MoveX != 0 || o.MoveY != 0 {
		st.StickX, st.StickY = o.MoveX, o.MoveY
	}
	if o.AimX != 0 || o.AimY != 0 {
		st.AimStickX, st.AimStickY = o.AimX, o.AimY
	}
	st.Fire = st.Fire || o.Fire
	st.Dash = st.Dash || o.Dash
	st.Scoreboard = st.Scoreboard || o.Scoreboard
	if o.Say != "" {
		if err := g.cl.SendChat(o.Say); err != nil {
			g.hud.notice(now, "chat not sent: "+err.Error())
		}
	}
}

// drawTouch draws the touch controls, once touch has been used: the two
// sticks (faint where they rest, bright under a thumb), DASH, SCORES, CHAT,
// MENU and the quick messages' list while it is open.
func (g *Game) drawTouch(dst *ebiten.Image) {
	t := &g.touch
	if !t.pad.Active {
		return
	}
	l := &t.layout
	f := g.fonts
	for _, s := range []struct {
		st   touch.Stick
		rest touch.Point
		name string
	}{{t.pad.Move, l.MoveRest, "MOVE"}, {t.pad.Aim, l.AimRest, "AIM · FIRE"}} {
		base, knob, a := s.rest, s.rest, 0.35
		if s.st.Held {
			base, knob, a = s.st.Base, s.st.Knob, 0.8
		}
		circle(dst, base.X, base.Y, l.Radius, fade(colPanel, a))
		ring(dst, base.X, base.Y, l.Radius, 3, fade(colTouchBase, a))
		circle(dst, knob.X, knob.Y, l.Radius*0.42, fade(colTouchBase, a*0.8))
		if !s.st.Held {
			drawText(dst, s.name, f.small, base.X, base.Y+l.Radius+8, text.AlignCenter, fade(colTextDim, 0.8))
		}
	}
	if t.out.Fire {
		a := t.pad.Aim
		ring(dst, a.Base.X, a.Base.Y, l.Radius, 5, fade(colBad, 0.9))
	}

	d := l.Dash
	fill := fade(colTouchDash, 0.88)
	if t.pad.DashHeld {
		fill = colTouchDash
	}
	vector.DrawFilledCircle(dst, float32(d.X), float32(d.Y), float32(d.R), fill, true)
	ring(dst, d.X, d.Y, d.R, 3, colTouchBase)
	drawText(dst, "DASH", f.normal, d.X, d.Y-10, text.AlignCenter, colPanel)

	touchButton(dst, f, l.Scores, "SCORES", t.pad.Scoreboard)
	touchButton(dst, f, l.Chat, "CHAT", t.pad.ChatOpen)
	touchButton(dst, f, l.Menu, "MENU", g.pause.open())
	if t.pad.ChatOpen {
		panel(dst, l.ChatPanel.X, l.ChatPanel.Y, l.ChatPanel.W, l.ChatPanel.H)
		for i, m := range touch.QuickMessages() {
			r := l.ChatRows[i]
			box(dst, r.X, r.Y, r.W, r.H, fade(colSelf, 0.16))
			drawText(dst, m, f.big, r.X+r.W/2, r.Y+r.H/2-16, text.AlignCenter, colText)
		}
	}
}

// touchButton draws a rectangular touch button, lit while on.
func touchButton(dst *ebiten.Image, f *fonts, r touch.Rect, label string, on bool) {
	fill, c := colPanel, colText
	if on {
		fill, c = fade(colSelf, 0.85), colPanel
	}
	box(dst, r.X, r.Y, r.W, r.H, fill)
	vector.StrokeRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), 2, colPanelEdge, false)
	drawText(dst, label, f.normal, r.X+r.W/2, r.Y+r.H/2-10, text.AlignCenter, c)
}
