package desktop

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/game/desktop/howto"
	"github.com/sightline-game/sightline/game/desktop/text"
)

// The "how to play" card's size: as wide as howToW, narrower on an upright
// screen, its text wrapped to it.
const (
	howToW   = 860.0
	howToPad = 24.0
)

// drawHowTo draws the "how to play" card (package howto says what, and
// when) in the middle of the screen, over the match and the HUD.
func (g *Game) drawHowTo(dst *ebiten.Image) {
	if !g.howto.Shown() {
		return
	}
	f := g.fonts
	w := min(howToW, g.sw-24)
	inner := w - 2*howToPad
	type row struct {
		s    string
		face *face
		c    color.RGBA
		dy   float64 // the space the row takes
	}
	var rows []row
	add := func(s string, fc *face, c color.RGBA, dy float64) { rows = append(rows, row{s, fc, c, dy}) }
	add(howto.Title, f.big, colSelf, 38)
	for _, s := range howto.Sections() {
		add(s.Title, f.small, colAccent, 20)
		for _, l := range s.Lines {
			for _, part := range text.Wrap(l, f.normal.metrics, inner) {
				add(part, f.normal, colText, 21)
			}
		}
		rows[len(rows)-1].dy += 10
	}
	for _, part := range text.Wrap(howto.Footer, f.small.metrics, inner) {
		add(part, f.small, colTextDim, 18)
	}
	h := 2 * howToPad
	for _, r := range rows {
		h += r.dy
	}
	x, y := (g.sw-w)/2, max((g.sh-h)/2, 12)
	panel(dst, x, y, w, h)
	box(dst, x, y, w, h, fade(colPanel, 0.6)) // darker than the HUD's panels: the map shows less through
	box(dst, x, y, w, 2, colSelf)
	ty := y + howToPad
	for i, r := range rows {
		tx, align := x+howToPad, text.AlignStart
		if i == 0 {
			tx, align = g.sw/2, text.AlignCenter
		}
		drawText(dst, r.s, r.face, tx, ty, align, r.c)
		ty += r.dy
	}
	g.drawn.HowToPlay, g.drawn.HowToPlayAt = true, [4]float64{x, y, w, h}
}
