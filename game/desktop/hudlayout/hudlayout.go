// Package hudlayout places the HUD's bottom corners and panels that
// depend on the screen's shape and on how wide their text is: the bottom
// left's row of bars (health, weapon, power-up), the status and hint
// lines each on a backing panel clear of them, and panels sized to the
// text they hold. It draws nothing and needs no
// display; game/desktop draws what it places.
package hudlayout

import (
	"github.com/sightline-game/sightline/assets/glyphs"
	"github.com/sightline-game/sightline/game/desktop/text"
)

// Rect is a rectangle on the logical screen, in px.
type Rect struct{ X, Y, W, H float64 }

// Overlaps reports whether r and o share any area.
func (r Rect) Overlaps(o Rect) bool {
	return r.X < o.X+o.W && o.X < r.X+r.W && r.Y < o.Y+o.H && o.Y < r.Y+r.H
}

// The bottom-left row: the health bar, right of it the weapon, and while
// the player has one the power-up, each a bar in a frame.
const (
	HealthX, HealthW = 20.0, 280.0
	WeaponX, WeaponW = 318.0, 150.0
	PowerX, PowerW   = WeaponX + WeaponW + 12, 150.0
	BarH             = 26.0
	barBottom        = 48.0 // from a bar's top to the screen's bottom
	barFrame         = 3.0
)

// HealthBar returns the health bar's bar on a screen sw x sh.
func HealthBar(sw, sh float64) Rect { return Rect{HealthX, sh - barBottom, HealthW, BarH} }

// BottomRow returns the area the bottom-left row covers, frames included:
// the health bar and the weapon, and the power-up when power is set.
func BottomRow(sh float64, power bool) Rect {
	right := WeaponX + WeaponW
	if power {
		right = PowerX + PowerW
	}
	return Rect{HealthX - barFrame, sh - barBottom - barFrame, right + barFrame - (HealthX - barFrame), BarH + 2*barFrame}
}

// A Line is a line of text on a backing panel: its text, the panel, and
// the point its text's right edge starts at (the text is right-aligned).
type Line struct {
	Text         string
	Box          Rect
	TextX, TextY float64
}

// The bottom-right lines' spacing.
const (
	edgeMargin = 14.0 // from the screen's right edge to the text's end
	linePad    = 6.0  // the panel's margin around the text, left and right
	lineH      = 20.0 // a line's panel height; lines are that far apart
	bottomY    = 24.0 // from the lowest line's text top to the screen's bottom
	barGap     = 12.0 // the least room between the bottom-left row and a line
	leastRoom  = 320.0
)

// BottomRight places the hint (lowest) and the status line above it at
// the bottom right of a screen sw x sh, in face f, right-aligned, each on
// its own panel, clear of the bottom-left row (BottomRow with power). Where
// the room right of the row is at least leastRoom wide (a landscape
// window), or each line fits it whole, the lines go there, wrapped to it
// if they must; otherwise (an upright phone before its first touch, with
// the keys' hint) they go above the row, as wide as the screen. Empty
// strings take no line.
func BottomRight(sw, sh float64, f *glyphs.Face, power bool, status, hint string) []Line {
	row := BottomRow(sh, power)
	room := sw - edgeMargin - linePad - (row.X + row.W + barGap) - linePad
	y := sh - bottomY
	if room < leastRoom && (text.Advance(status, f) > room || text.Advance(hint, f) > room) {
		room = sw - 2*edgeMargin - 2*linePad
		y = row.Y - barGap - lineH + 2
	}
	var lines []Line
	for _, s := range []string{hint, status} {
		if s == "" {
			continue
		}
		parts := text.Wrap(s, f, room)
		for i := len(parts) - 1; i >= 0; i-- {
			w := text.Advance(parts[i], f)
			x := sw - edgeMargin
			lines = append(lines, Line{
				Text: parts[i], TextX: x, TextY: y,
				Box: Rect{x - w - linePad, y - 2, w + 2*linePad, lineH - 2},
			})
			y -= lineH
		}
	}
	return lines
}

// PanelWidth returns the width of a panel of rows in face f: the widest
// row with pad on either side, and never less than least.
func PanelWidth(rows []string, f *glyphs.Face, least, pad float64) float64 {
	w := least
	for _, r := range rows {
		w = max(w, text.Advance(r, f)+2*pad)
	}
	return w
}
