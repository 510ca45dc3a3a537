package desktop

import (
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/desktop/hudlayout"
	"github.com/sightline-game/sightline/game/desktop/scoreboard"
	"github.com/sightline-game/sightline/game/desktop/text"
	"github.com/sightline-game/sightline/game/protocol"
)

// Colours of the new things: the spread gun's orange, the power-up's
// magenta.
var (
	colSpread = color.RGBA{0xff, 0x8a, 0x2a, 0xff}
	colPower  = color.RGBA{0xe0, 0x4c, 0xff, 0xff}
)

// ownLoadout is the player's own loadout record, re-read after each poll.
type ownLoadout struct {
	arena.Loadout
	ok bool
}

// readLoadout takes a loadout record during recordState.read: the player's
// own is kept, the others' are not shown.
func (r *recordState) readLoadout(g *Game, index uint32, payload []byte) {
	me, ok := g.cl.Player()
	if !ok || arena.PlayerID(index) != me {
		return
	}
	if l, err := protocol.ParseLoadout(payload); err == nil {
		r.own = ownLoadout{l, true}
	} else {
		r.bad++
	}
}

// drawLoadout draws, right of the health bar, the weapon with its shots
// left, and beside it the power-up with a bar and seconds counting down.
func (g *Game) drawLoadout(dst *ebiten.Image) {
	if !g.records.own.ok || !g.self.ok {
		return
	}
	tick, _ := g.cl.Newest()
	v := scoreboard.ViewLoadout(g.records.own.Loadout, tick, g.cfg.TickRate)
	f := g.fonts
	r := hudlayout.HealthBar(g.sw, g.sh)
	x, y, h := hudlayout.WeaponX, r.Y, hudlayout.BarH
	c := colText
	if v.Weapon == "SPREAD" {
		c = colSpread
	}
	box(dst, x-3, y-3, hudlayout.WeaponW+6, h+6, colPanel)
	drawText(dst, v.Weapon, f.normal, x+8, y+4, text.AlignStart, c)
	if v.Shots != "" {
		drawText(dst, v.Shots, f.small, x+146, y+6, text.AlignEnd, colText)
	}
	if !v.Power {
		return
	}
	px, w := hudlayout.PowerX, hudlayout.PowerW
	box(dst, px-3, y-3, w+6, h+6, colPanel)
	box(dst, px, y+h-6, w, 6, color.RGBA{0x2a, 0x10, 0x30, 0xff})
	box(dst, px, y+h-6, w*v.PowerFrac, 6, colPower)
	drawText(dst, fmt.Sprintf("x2 DAMAGE  %.0f s", math.Ceil(v.PowerLeft)), f.small, px+6, y+1, text.AlignStart, colPower)
}
