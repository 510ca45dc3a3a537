package desktop

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/desktop/scoreboard"
	"github.com/sightline-game/sightline/game/desktop/text"
)

// drawIntermission draws the results between two rounds: the best players
// with their scores, kills, deaths and accuracy, the player's own line, and
// the countdown to the next round. It reports whether it drew them.
func (g *Game) drawIntermission(dst *ebiten.Image) bool {
	tick, _ := g.cl.Newest()
	me, _ := g.cl.Player()
	var clock arena.Clock // no clock yet: no intermission
	if g.records.hasClock {
		clock = g.records.clock
	}
	res, ok := scoreboard.Intermission(clock, g.records.scores, me, tick, g.cfg.TickRate)
	if !ok {
		return false
	}
	f := g.fonts
	w, h := 620.0, 204+float64(max(len(res.Top), 1))*28
	x, y := (g.sw-w)/2, 96.0
	panel(dst, x, y, w, h)
	drawText(dst, fmt.Sprintf("ROUND %d OVER", res.Round), f.huge, x+w/2, y+14, text.AlignCenter, colAccent)
	cols := [4]float64{x + 360, x + 430, x + 500, x + 580}
	hy := y + 74
	drawText(dst, "PLAYER", f.small, x+28, hy, text.AlignStart, colTextDim)
	for i, s := range [4]string{"SCORE", "KILLS", "DEATHS", "ACCURACY"} {
		drawText(dst, s, f.small, cols[i], hy, text.AlignEnd, colTextDim)
	}
	row := func(ry float64, rank int, s scoreboard.Row, c color.RGBA) {
		name := s.Name
		if name == "" {
			name = g.records.name(s.Player)
		}
		drawText(dst, fmt.Sprintf("%d. %s", rank, name), f.normal, x+28, ry, text.AlignStart, c)
		for i, v := range [4]string{fmt.Sprint(s.Score.Score), fmt.Sprint(s.Kills), fmt.Sprint(s.Deaths), scoreboard.Accuracy(s.Score)} {
			drawText(dst, v, f.normal, cols[i], ry, text.AlignEnd, c)
		}
	}
	ry := hy + 26
	for i, s := range res.Top {
		c := colText
		if s.Player == me {
			box(dst, x+12, ry-3, w-24, 26, fade(colSelf, 0.18))
			c = colSelf
		}
		row(ry, i+1, s, c)
		ry += 28
	}
	if len(res.Top) == 0 {
		drawText(dst, "nobody played", f.normal, x+w/2, ry, text.AlignCenter, colTextDim)
		ry += 28
	}
	ry += 12
	box(dst, x+20, ry, w-40, 1, colPanelEdge)
	ry += 14
	if res.MeOK {
		drawText(dst, fmt.Sprintf("YOU: #%d   kills %d   deaths %d   accuracy %s (%d of %d shots hit)",
			res.Rank, res.Me.Kills, res.Me.Deaths, scoreboard.Accuracy(res.Me.Score), res.Me.Hits, res.Me.Shots), f.normal, x+w/2, ry, text.AlignCenter, colSelf)
	}
	drawText(dst, fmt.Sprintf("next round in %d", res.Next), f.big, x+w/2, ry+36, text.AlignCenter, colText)
	return true
}
