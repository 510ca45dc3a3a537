package desktop

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/desktop/feed"
	"github.com/sightline-game/sightline/game/desktop/hudlayout"
	"github.com/sightline-game/sightline/game/desktop/scoreboard"
	"github.com/sightline-game/sightline/game/desktop/text"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/events"
)

// How long the HUD's lines stay.
const (
	killFeedTTL = 5 * time.Second
	chatTTL     = 12 * time.Second
	noticeTTL   = 3 * time.Second
	bannerTTL   = 5 * time.Second
	hurtFlash   = 300 * time.Millisecond
	hitMarker   = 200 * time.Millisecond
)

// hudState is what the HUD shows beyond the snapshot: feeds of events and
// the moments of the last hit taken and given.
type hudState struct {
	kills   *feed.Feed
	chat    *feed.Feed
	notices *feed.Feed
	banner  *feed.Feed
	hurtAt  time.Time
	hitAt   time.Time
	names   map[arena.PlayerID]string // from Join events, until a score record names them
}

func (h *hudState) init() {
	h.kills = feed.New(6, killFeedTTL)
	h.chat = feed.New(8, chatTTL)
	h.notices = feed.New(3, noticeTTL)
	h.banner = feed.New(1, bannerTTL)
	h.names = make(map[arena.PlayerID]string)
}

func (h *hudState) notice(now time.Time, s string) { h.notices.Push(now, s, feed.ToneSystem) }

// name returns the name to show for player id; 0 is a creature.
func (g *Game) name(id uint32) string {
	if id == 0 {
		return "a creature"
	}
	if me, ok := g.cl.Player(); ok && arena.PlayerID(id) == me {
		return "you"
	}
	if s, _, ok := g.records.score(arena.PlayerID(id)); ok && s.Name != "" {
		return s.Name
	}
	if n := g.hud.names[arena.PlayerID(id)]; n != "" {
		return n
	}
	return g.records.name(arena.PlayerID(id))
}

// event takes one of the match's events, during Poll.
func (g *Game) event(e events.Event) {
	now := g.cfg.Now()
	g.soundEvent(now, e)
	me, _ := g.cl.Player()
	switch e.Kind {
	case protocol.KindKill:
		k, err := protocol.ParseKill(e.Body)
		if err != nil {
			return
		}
		tone := feed.ToneNormal
		if me != 0 && (k.Killer == uint32(me) || k.Victim == uint32(me)) {
			tone = feed.ToneSelf
		}
		if k.Killer != 0 {
			g.watch.killer = k.Killer
		}
		g.startKillcam(now, e.Tick, k)
		g.hud.kills.Push(now, fmt.Sprintf("%s %s %s", g.name(k.Killer), scoreboard.KillVerb(arena.Weapon(k.Weapon)), g.name(k.Victim)), tone)
	case protocol.KindHit:
		h, err := protocol.ParseHit(e.Body)
		if err != nil {
			return
		}
		if h.Target == uint32(me) {
			g.hud.hurtAt = now
		}
		if h.Attacker == uint32(me) && me != 0 && h.Target != uint32(me) {
			// The server says the own shot hit: the mark and the tick.
			// Damage is only ever the server's to say.
			g.hud.hitAt = now
			if g.fired != nil {
				g.fired.Hit(h.Shot)
			}
			if g.snd.mix != nil {
				g.snd.mix.HitConfirm(now)
			}
		}
	case protocol.KindJoin:
		j, err := protocol.ParseJoin(e.Body)
		if err != nil {
			return
		}
		name := protocol.CleanChat(j.Name)
		if name != "" {
			g.hud.names[arena.PlayerID(j.Player)] = name
		}
		if arena.PlayerID(j.Player) != me {
			g.hud.notice(now, g.name(j.Player)+" joined")
		}
	case protocol.KindLeave:
		l, err := protocol.ParseLeave(e.Body)
		if err != nil {
			return
		}
		g.hud.notice(now, g.name(l.Player)+" left")
		delete(g.hud.names, arena.PlayerID(l.Player))
	case protocol.KindChat:
		c, err := protocol.ParseChat(e.Body)
		if err != nil {
			return
		}
		tone := feed.ToneNormal
		if c.From == uint32(me) {
			tone = feed.ToneSelf
		}
		g.hud.chat.Push(now, g.chatName(c.From)+": "+protocol.CleanChat(c.Text), tone)
	case protocol.KindRoundOver:
		r, err := protocol.ParseRoundOver(e.Body)
		if err != nil {
			return
		}
		msg := fmt.Sprintf("Round %d over", r.Round)
		if r.Winner != 0 {
			msg += " — " + g.name(r.Winner) + " won"
		}
		g.hud.banner.Push(now, msg, feed.ToneSystem)
	}
}

func (g *Game) chatName(id uint32) string {
	if me, ok := g.cl.Player(); ok && arena.PlayerID(id) == me && g.cfg.Name != "" {
		return g.cfg.Name
	}
	return g.name(id)
}

func toneColor(t feed.Tone) color.RGBA {
	switch t {
	case feed.ToneSelf:
		return colAccent
	case feed.ToneSystem:
		return colTextDim
	}
	return colText
}

// panel draws a translucent rounded-looking box.
func panel(dst *ebiten.Image, x, y, w, h float64) {
	box(dst, x, y, w, h, colPanel)
	box(dst, x, y, w, 1, colPanelEdge)
	box(dst, x, y+h-1, w, 1, colPanelEdge)
	box(dst, x, y, 1, h, colPanelEdge)
	box(dst, x+w-1, y, 1, h, colPanelEdge)
}

// drawFloor fills the screen with the arena's floor and grid, behind the
// menu and the connecting screen.
func drawFloor(dst *ebiten.Image) {
	dst.Fill(colFloor)
	for x := 0.0; x < ScreenWidth; x += 40 {
		c := colGrid
		if int(x)%200 == 0 {
			c = colGridMajor
		}
		box(dst, x, 0, 1, ScreenHeight, c)
	}
	for y := 0.0; y < ScreenHeight; y += 40 {
		c := colGrid
		if int(y)%200 == 0 {
			c = colGridMajor
		}
		box(dst, 0, y, ScreenWidth, 1, c)
	}
}

// drawHUD draws everything that is not the world: the player's status, the
// round clock, feeds, chat, the scoreboard and hints.
func (g *Game) drawHUD(dst *ebiten.Image, now time.Time) {
	f := g.fonts
	if !g.spectating() {
		g.drawCrosshair(dst, now)
	}

	// Top left: who and how well.
	panel(dst, 12, 12, 300, 62)
	name := g.cfg.Name
	if name == "" {
		name = "you"
	}
	line := "waiting for the server…"
	if g.spectating() {
		name, line = g.watchLine()
		g.drawn.Watching = name
	}
	drawText(dst, name, f.big, 24, 18, text.AlignStart, colSelf)
	if me, ok := g.cl.Player(); ok && !g.spectating() {
		if s, rank, ok := g.records.score(me); ok {
			line = fmt.Sprintf("score %d   kills %d   deaths %d   #%d of %d", s.Score.Score, s.Kills, s.Deaths, rank, len(g.records.scores))
		} else {
			line = fmt.Sprintf("player %d", me)
		}
	}
	drawText(dst, line, f.small, 24, 50, text.AlignStart, colTextDim)

	// Top centre: the round clock.
	if g.records.hasClock {
		tick, _ := g.cl.Newest()
		rc := scoreboard.RoundClock(g.records.clock, tick, g.cfg.TickRate)
		c := colText
		if rc.Urgent {
			c = colBad
		}
		drawText(dst, rc.Time, f.huge, g.sw/2, 10, text.AlignCenter, c)
		drawText(dst, rc.Label, f.small, g.sw/2, 58, text.AlignCenter, colTextDim)
	}
	// Notices under the clock.
	for i, l := range g.hud.notices.Lines(now) {
		drawText(dst, l.Text, f.normal, g.sw/2, 84+float64(i)*22, text.AlignCenter, fade(toneColor(l.Tone), g.hud.notices.Alpha(l, now)))
	}

	// Right, under the minimap: the kill feed.
	y := float64(miniY + miniSize + 14)
	for _, l := range g.hud.kills.Lines(now) {
		a := g.hud.kills.Alpha(l, now)
		w := textWidth(l.Text, f.normal)
		box(dst, g.sw-miniMargin-w-12, y-2, w+12, 24, fade(colPanel, a))
		drawText(dst, l.Text, f.normal, g.sw-miniMargin-6, y, text.AlignEnd, fade(toneColor(l.Tone), a))
		y += 28
	}

	g.drawHealth(dst)
	g.drawLoadout(dst)
	g.drawChat(dst, now)
	if !g.drawIntermission(dst) { // the results replace the banners
		g.drawBanners(dst, now)
	}

	// Bottom right: the hint and the match's status, each on a panel so
	// that it reads over walls, wrapped clear of the health bar.
	hint := keyHint
	if g.spectating() {
		hint = watchKeyHint
	}
	if g.touch.pad.Active { // the touch controls speak for themselves
		hint = ""
	}
	status := g.status()
	g.drawn.JoinHint = ""
	if g.cfg.JoinHint != nil {
		g.drawn.JoinHint = status
	}
	for _, l := range hudlayout.BottomRight(g.sw, g.sh, f.small.metrics, g.powered(), status, hint) {
		b := l.Box
		box(dst, b.X, b.Y, b.W, b.H, colPanel)
		drawText(dst, l.Text, f.small, l.TextX, l.TextY, text.AlignEnd, colTextDim)
	}
	if g.scoreboard {
		g.drawScoreboard(dst)
	}
}

// keyHint is the bottom line's reminder of the keys.
const keyHint = "WASD move · mouse aim · click fire · Shift dash · Enter chat · Tab scores · F3 network · M mute · Esc menu"

// powered reports whether the bottom-left row shows the power-up's bar
// (drawLoadout).
func (g *Game) powered() bool {
	if !g.records.own.ok || !g.self.ok {
		return false
	}
	tick, _ := g.cl.Newest()
	return scoreboard.ViewLoadout(g.records.own.Loadout, tick, g.cfg.TickRate).Power
}

// status returns the HUD's status line: how others join, for a match
// hosted here (Config.JoinHint), else Config.Status.
func (g *Game) status() string {
	if g.cfg.JoinHint != nil {
		if s := g.cfg.JoinHint(); s != "" {
			return s
		}
	}
	return g.cfg.Status
}

// drawHealth draws the health bar in the bottom-left corner.
func (g *Game) drawHealth(dst *ebiten.Image) {
	if !g.self.ok {
		return
	}
	r := hudlayout.HealthBar(g.sw, g.sh)
	x, y, w, h := r.X, r.Y, r.W, r.H
	frac := float64(g.self.health) / arena.PlayerHealth
	box(dst, x-3, y-3, w+6, h+6, colPanel)
	box(dst, x, y, w, h, color.RGBA{0x2a, 0x10, 0x14, 0xff})
	box(dst, x, y, w*min(frac, 1), h, healthColor(frac))
	box(dst, x, y, w*min(frac, 1), 4, fade(color.RGBA{0xff, 0xff, 0xff, 0xff}, 0.25))
	drawText(dst, fmt.Sprintf("HEALTH %d", g.self.health), g.fonts.normal, x+10, y+4, text.AlignStart, colText)
}

// drawChat draws the chat lines above the health bar, and the line being
// typed.
func (g *Game) drawChat(dst *ebiten.Image, now time.Time) {
	f := g.fonts
	y := float64(g.sh - 84)
	if g.typing {
		s := "say: " + g.input.Typed()
		if (now.UnixMilli()/500)%2 == 0 {
			s += "_"
		}
		panel(dst, 16, y-4, 520, 28)
		drawText(dst, s, f.normal, 26, y, text.AlignStart, colText)
		y -= 32
	}
	lines := g.hud.chat.Lines(now)
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		a := g.hud.chat.Alpha(l, now)
		if g.typing {
			a = 1
		}
		drawText(dst, l.Text, f.normal, 20, y, text.AlignStart, fade(toneColor(l.Tone), a))
		y -= 22
	}
}

// drawBanners draws the big centre messages: connecting, death, round over.
func (g *Game) drawBanners(dst *ebiten.Image, now time.Time) {
	f := g.fonts
	cy := float64(g.sh/2 - 120)
	if _, s := g.cl.Newest(); s == nil {
		msg := "connecting…"
		if g.net.closed {
			msg = "disconnected"
		}
		panel(dst, g.sw/2-180, cy-10, 360, 64)
		drawText(dst, msg, f.big, g.sw/2, cy+8, text.AlignCenter, colText)
		return
	}
	if g.self.ok && g.self.state&protocol.StateDead != 0 {
		drawText(dst, "YOU DIED", f.huge, g.sw/2, cy, text.AlignCenter, colBad)
		drawText(dst, "respawning…", f.normal, g.sw/2, cy+50, text.AlignCenter, colText)
	}
	if g.self.ok && g.self.state&protocol.StateShielded != 0 {
		drawText(dst, "shielded: no damage until it fades or you fire", f.normal, g.sw/2, g.sh-90, text.AlignCenter, colShield)
	}
	for _, l := range g.hud.banner.Lines(now) {
		drawText(dst, l.Text, f.huge, g.sw/2, cy+90, text.AlignCenter, fade(colAccent, g.hud.banner.Alpha(l, now)))
	}
	if g.net.closed {
		drawText(dst, "disconnected from the match", f.big, g.sw/2, cy-50, text.AlignCenter, colBad)
	}
}

// drawDamageFlash reddens the edges of the world's view just after the
// player is hit; the minimap and the HUD, drawn over it, stay clear.
func (g *Game) drawDamageFlash(dst *ebiten.Image, now time.Time) {
	d := now.Sub(g.hud.hurtAt)
	if g.hud.hurtAt.IsZero() || d > hurtFlash {
		return
	}
	a := 1 - float64(d)/float64(hurtFlash)
	c := fade(color.RGBA{0xd0, 0x10, 0x20, 0xff}, 0.45*a)
	for i := range 6 {
		w := float64(6 + i*8)
		k := fade(c, 1-float64(i)/6)
		box(dst, 0, 0, g.sw, w/2, k)
		box(dst, 0, g.sh-w/2, g.sw, w/2, k)
		box(dst, 0, 0, w/2, g.sh, k)
		box(dst, g.sw-w/2, 0, w/2, g.sh, k)
	}
}

// hitMarkReach is how far ahead of the own player, along its aim, the hit
// marker shows when there is no cursor (the touch controls, the autopilot).
const hitMarkReach = 110

// drawCrosshair draws the aim cursor, and after a hit the server reported
// for the own shot a hit marker on it (without a cursor: ahead of the own
// player along its aim), fading.
func (g *Game) drawCrosshair(dst *ebiten.Image, now time.Time) {
	x, y, cursor := 0.0, 0.0, false
	if g.cfg.Autopilot == nil && !g.typing && !g.touch.pad.Active {
		mx, my := ebiten.CursorPosition()
		x, y = float64(mx), float64(my)
		cursor = x > 0 || y > 0
	}
	if cursor {
		ring(dst, x, y, 9, 1.5, fade(colText, 0.8))
		for _, d := range [4][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			line(dst, x+d[0]*5, y+d[1]*5, x+d[0]*13, y+d[1]*13, 1.5, colText)
		}
	} else if g.self.ok {
		x, y = g.self.sx+math.Cos(g.self.heading)*hitMarkReach, g.self.sy+math.Sin(g.self.heading)*hitMarkReach
	} else {
		return
	}
	age := now.Sub(g.hud.hitAt)
	if g.hud.hitAt.IsZero() || age >= hitMarker {
		return
	}
	g.drawn.HitMarker = true
	g.drawn.Over = append(g.drawn.Over, DrawnMark{At: [2]float64{x, y}, Radius: 20})
	c := fade(colBad, 1-0.7*float64(age)/float64(hitMarker))
	grow := 2 * float64(age) / float64(hitMarker)
	for _, d := range [4][2]float64{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
		line(dst, x+d[0]*(6+grow), y+d[1]*(6+grow), x+d[0]*(14+grow), y+d[1]*(14+grow), 2.5, c)
	}
}

// drawScoreboard draws every player's score, best first.
func (g *Game) drawScoreboard(dst *ebiten.Image) {
	f := g.fonts
	rows := g.records.scores
	w, h := 560.0, 90+float64(max(len(rows), 1))*26
	x, y := (g.sw-w)/2, 110.0
	panel(dst, x, y, w, h)
	drawText(dst, "SCOREBOARD", f.big, x+w/2, y+12, text.AlignCenter, colText)
	cols := []float64{x + 24, x + 330, x + 410, x + 490}
	hy := y + 52
	for i, s := range []string{"player", "score", "kills", "deaths"} {
		align := text.AlignEnd
		cx := cols[i] + 40
		if i == 0 {
			align, cx = text.AlignStart, cols[0]
		}
		drawText(dst, strings.ToUpper(s), f.small, cx, hy, align, colTextDim)
	}
	me, _ := g.cl.Player()
	for i, r := range rows {
		ry := hy + 24 + float64(i)*26
		c := colText
		if r.Player == me {
			box(dst, x+8, ry-3, w-16, 24, fade(colSelf, 0.18))
			c = colSelf
		}
		name := r.Name
		if name == "" {
			name = g.records.name(r.Player)
		}
		drawText(dst, fmt.Sprintf("%d. %s", i+1, name), f.normal, cols[0], ry, text.AlignStart, c)
		for j, v := range []uint32{r.Score.Score, r.Kills, r.Deaths} {
			drawText(dst, fmt.Sprint(v), f.normal, cols[j+1]+40, ry, text.AlignEnd, c)
		}
	}
	if len(rows) == 0 {
		drawText(dst, "no scores yet", f.normal, x+w/2, hy+24, text.AlignCenter, colTextDim)
	}
}
