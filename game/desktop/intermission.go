package desktop

import (
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/sightline-game/sightline/game/arena"
)

// intermissionTop is how many of the best players the results list.
const intermissionTop = 5

// results is what the intermission screen shows: the round that ended,
// its best players (the score records, which keep the ended round's scores
// until the next round starts), the player's own line, and the seconds
// until the next round.
type results struct {
	Round uint32
	Top   []scoreRow
	Me    scoreRow
	MeOK  bool
	Rank  int
	Next  int // whole seconds until the next round, counting down
}

// intermissionResults returns the results to show at tick, and false when
// the clock says no intermission is running.
func intermissionResults(r *recordState, me arena.PlayerID, tick uint32, tickRate float64) (results, bool) {
	if !r.hasClock || !r.clock.Intermission(tick) {
		return results{}, false
	}
	res := results{
		Round: r.clock.Round,
		Top:   r.scores[:min(len(r.scores), intermissionTop)],
		Next:  int(math.Ceil(float64(r.clock.UntilNext(tick)) / tickRate)),
	}
	res.Me, res.Rank, res.MeOK = r.score(me)
	return res, true
}

// accuracy is a score's hits per shot as a percentage, or a dash before
// the first shot.
func accuracy(s arena.Score) string {
	if s.Shots == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(s.Hits)/float64(s.Shots))
}

// drawIntermission draws the results between two rounds: the best players
// with their scores, kills, deaths and accuracy, the player's own line, and
// the countdown to the next round. It reports whether it drew them.
func (g *Game) drawIntermission(dst *ebiten.Image) bool {
	tick, _ := g.cl.Newest()
	me, _ := g.cl.Player()
	res, ok := intermissionResults(&g.records, me, tick, g.cfg.TickRate)
	if !ok {
		return false
	}
	f := g.fonts
	w, h := 620.0, 204+float64(max(len(res.Top), 1))*28
	x, y := (ScreenWidth-w)/2, 96.0
	panel(dst, x, y, w, h)
	drawText(dst, fmt.Sprintf("ROUND %d OVER", res.Round), f.huge, x+w/2, y+14, text.AlignCenter, colAccent)
	cols := [4]float64{x + 360, x + 430, x + 500, x + 580}
	hy := y + 74
	drawText(dst, "PLAYER", f.small, x+28, hy, text.AlignStart, colTextDim)
	for i, s := range [4]string{"SCORE", "KILLS", "DEATHS", "ACCURACY"} {
		drawText(dst, s, f.small, cols[i], hy, text.AlignEnd, colTextDim)
	}
	row := func(ry float64, rank int, s scoreRow, c color.RGBA) {
		name := s.Name
		if name == "" {
			name = g.records.name(s.player)
		}
		drawText(dst, fmt.Sprintf("%d. %s", rank, name), f.normal, x+28, ry, text.AlignStart, c)
		for i, v := range [4]string{fmt.Sprint(s.Score.Score), fmt.Sprint(s.Kills), fmt.Sprint(s.Deaths), accuracy(s.Score)} {
			drawText(dst, v, f.normal, cols[i], ry, text.AlignEnd, c)
		}
	}
	ry := hy + 26
	for i, s := range res.Top {
		c := colText
		if s.player == me {
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
			res.Rank, res.Me.Kills, res.Me.Deaths, accuracy(res.Me.Score), res.Me.Hits, res.Me.Shots), f.normal, x+w/2, ry, text.AlignCenter, colSelf)
	}
	drawText(dst, fmt.Sprintf("next round in %d", res.Next), f.big, x+w/2, ry+36, text.AlignCenter, colText)
	return true
}
