//go:build !js

// The start menu lists matches heard on the LAN (netcode/lan, UDP) and pings
// them over HTTP (game/desktop/lobby): the browser build, which joins the
// match of its page's origin, links none of it.

package desktop

import (
	"context"
	"fmt"
	"image/color"
	"log/slog"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/sightline-game/sightline/game/desktop/audio"
	"github.com/sightline-game/sightline/game/desktop/lobby"
	"github.com/sightline-game/sightline/game/desktop/settingsui"
	"github.com/sightline-game/sightline/game/desktop/text"
	"github.com/sightline-game/sightline/game/replays"
	"github.com/sightline-game/sightline/netcode/lan"
)

// MenuConfig sets up the start menu.
type MenuConfig struct {
	// Context bounds the menu's pings and joins (default: Background).
	Context context.Context
	// Matches returns the matches heard on the LAN now (a lan.Browser's
	// Matches); nil lists none.
	Matches func() []lan.Match
	// Listening is a line about the LAN browser, like "listening for
	// matches on UDP port 47800", or why it is not.
	Listening string
	// Join connects to the match server at url and returns the scene that
	// plays it: the server's match called match, on a server hosting
	// several (an empty match lets the server choose). It runs in its own
	// goroutine; the menu shows that it is joining, and the error if it
	// fails.
	Join func(ctx context.Context, url, match string) (Scene, error)
	// Watch, like Join, connects to the match server at url, to watch its
	// match without playing (a spectator): V on a match, or its row's
	// watch button. Nil offers no watching.
	Watch func(ctx context.Context, url, match string) (Scene, error)
	// Host starts a match in this process and returns the scene that
	// plays it; nil leaves "Host a match here" out of action.
	Host func(ctx context.Context) (Scene, error)
	// Replays lists the recent replays of matches hosted here, newest
	// first (read when the menu opens); nil lists none.
	Replays func() []replays.Replay
	// Replay opens the replay file at path and returns the scene that
	// plays it.
	Replay func(ctx context.Context, path string) (Scene, error)
	// Name is the player's name when Prefs is nil.
	Name string
	// Prefs are the player's settings (NewPrefs), shared with the matches
	// joined: the menu's name field and settings screen change them, and
	// Join and Host read the name from them. Nil keeps them in memory.
	Prefs *settingsui.Prefs
	// Logger receives failed joins (default: discard).
	Logger *slog.Logger
	// Sound clicks when a choice is made (nil: silent).
	Sound *audio.Sound
}

// Menu is the start menu: the matches heard on the LAN with their players
// and ping (a row per match of a server hosting several), an address field, and "Host a match here". Choosing one joins
// (or hosts) in the background, then hands the window to the match.
type Menu struct {
	cfg    MenuConfig
	fonts  *fonts
	list   *lobby.Model
	pinger lobby.Pinger
	stop   context.CancelFunc // ends the pinger, and any join, once handed over
	ctx    context.Context

	first     int // the first row shown
	rowsShown int
	mouseX    int
	mouseY    int
	mouseSeen bool // mouseX, mouseY are set: a cursor at rest selects nothing
	backN     int  // frames Backspace has been held
	runes     []rune
	errLine   string

	// The player's name and settings.
	prefs     *settingsui.Prefs
	name      settingsui.TextField
	nameFocus bool            // the name field has the keys
	screen    *settingsScreen // the settings screen, while open
	ui        uiReader
	note      string // a passing line, like "sound muted"
	noteAt    time.Time

	// The join in flight, if any.
	joining    string // what is being joined ("" when idle)
	joinStart  time.Time
	cancelJoin context.CancelFunc
	joined     chan joinResult
	next       Scene
}

// hostWhat is what the menu is "joining" while it hosts.
const hostWhat = "a match here"

type joinResult struct {
	scene Scene
	err   error
	what  string
}

// NewMenu returns the start menu; its pinger runs until a match is joined
// or cfg.Context ends.
func NewMenu(cfg MenuConfig) *Menu {
	if cfg.Context == nil {
		cfg.Context = context.Background()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Prefs == nil {
		cfg.Prefs = NewPrefs(PrefsConfig{Name: cfg.Name})
	}
	m := &Menu{cfg: cfg, fonts: newFonts(), list: lobby.New(), joined: make(chan joinResult, 1), prefs: cfg.Prefs}
	m.name = settingsui.NewTextField(m.prefs.Name())
	m.ctx, m.stop = context.WithCancel(cfg.Context)
	go m.pinger.Run(m.ctx)
	if cfg.Replays != nil {
		m.list.SetReplays(cfg.Replays())
	}
	m.refresh()
	return m
}

// The menu's layout, in logical pixels.
const (
	menuX, menuY, menuW = 190.0, 150.0, 900.0
	menuHeadH           = 34.0
	menuRowH            = 34.0
	menuMaxRows         = 9
	fieldY              = menuY + menuHeadH + menuMaxRows*menuRowH + 58
	fieldH              = 36.0
)

// The name field (top right) and the settings button (top right corner).
var (
	nameRect     = settingsui.Rect{X: menuX + menuW - 300, Y: 104, W: 300, H: 34}
	settingsRect = settingsui.Rect{X: ScreenWidth - 150, Y: 14, W: 136, H: 34}
)

// Column x offsets from menuX.
var menuCols = struct{ name, players, addr, ping float64 }{20, 420, 540, 880}

// Next returns the match's scene once joined, for App.
func (m *Menu) Next() Scene { return m.next }

// Rows returns the rows listed: the matches heard (with their pings),
// then "Host a match here", then the recent replays.
func (m *Menu) Rows() []lobby.Row { return m.list.Rows() }

// refresh takes in the matches heard and their pings.
func (m *Menu) refresh() {
	var ms []lan.Match
	if m.cfg.Matches != nil {
		ms = m.cfg.Matches()
	}
	urls := make([]string, len(ms))
	for i, mt := range ms {
		urls[i] = mt.URL
	}
	m.pinger.Watch(urls)
	m.list.SetServers(ms, m.pinger.Get, m.pinger.List)
	m.first = m.list.Window(m.first, menuMaxRows)
}

// Update reads the keys and mouse, refreshes the list and watches the join.
func (m *Menu) Update() error {
	m.refresh()
	if m.joining != "" {
		m.awaitJoin()
		return nil
	}
	if m.screen != nil {
		in, _ := m.ui.read()
		if m.screen.update(in) {
			m.screen = nil
			m.name = settingsui.NewTextField(m.prefs.Name())
		}
		return nil
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyF2) {
		m.openSettings()
		return nil
	}
	m.mouse()
	if m.screen != nil {
		return nil
	}
	switch {
	case m.nameFocus:
		m.typeName()
	case m.list.Focus() == lobby.FocusList:
		if inpututil.IsKeyJustPressed(ebiten.KeyM) {
			m.toggleMute()
		}
		switch {
		case repeat(ebiten.KeyArrowUp), repeat(ebiten.KeyW):
			m.list.Move(-1)
		case repeat(ebiten.KeyArrowDown), repeat(ebiten.KeyS):
			m.list.Move(1)
		case inpututil.IsKeyJustPressed(ebiten.KeyHome), inpututil.IsKeyJustPressed(ebiten.KeyPageUp):
			m.list.Move(-len(m.list.Rows()))
		case inpututil.IsKeyJustPressed(ebiten.KeyEnd), inpututil.IsKeyJustPressed(ebiten.KeyPageDown):
			m.list.Move(len(m.list.Rows()))
		case inpututil.IsKeyJustPressed(ebiten.KeyV) && m.joining == "":
			m.act(m.list.Watch())
		}
	case m.list.Focus() == lobby.FocusAddress:
		m.runes = ebiten.AppendInputChars(m.runes[:0])
		m.list.Type(m.runes...)
		if ebiten.IsKeyPressed(ebiten.KeyBackspace) {
			m.backN++
			if m.backN == 1 || (m.backN > 24 && m.backN%3 == 0) {
				m.list.Backspace()
			}
		} else {
			m.backN = 0
		}
		if inpututil.IsKeyJustPressed(ebiten.KeyEscape) || inpututil.IsKeyJustPressed(ebiten.KeyArrowUp) || inpututil.IsKeyJustPressed(ebiten.KeyArrowDown) {
			m.list.SetFocus(lobby.FocusList)
		}
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyTab) {
		// Round the three: the list, the address, the name.
		switch {
		case m.nameFocus:
			m.nameFocus = false
			m.list.SetFocus(lobby.FocusList)
		case m.list.Focus() == lobby.FocusAddress:
			m.nameFocus = true
		default:
			m.list.ToggleFocus()
		}
	}
	if !m.nameFocus && (inpututil.IsKeyJustPressed(ebiten.KeyEnter) || inpututil.IsKeyJustPressed(ebiten.KeyNumpadEnter)) {
		m.act(m.list.Enter())
	}
	m.first = m.list.Window(m.first, menuMaxRows)
	return nil
}

// typeName edits the name field: typed characters, Backspace; Enter, Esc
// or an arrow key give the keys back to the list. Each change is the
// player's name at once, saved.
func (m *Menu) typeName() {
	m.runes = ebiten.AppendInputChars(m.runes[:0])
	changed := m.name.Type(m.runes...)
	if repeat(ebiten.KeyBackspace) {
		changed = m.name.Backspace() || changed
	}
	if changed {
		if err := m.prefs.SetName(m.name.Name()); err != nil {
			m.errLine = "name not saved: " + err.Error()
		}
	}
	for _, k := range []ebiten.Key{ebiten.KeyEnter, ebiten.KeyNumpadEnter, ebiten.KeyEscape, ebiten.KeyArrowUp, ebiten.KeyArrowDown} {
		if inpututil.IsKeyJustPressed(k) {
			m.nameFocus = false
			m.list.SetFocus(lobby.FocusList)
			return
		}
	}
}

// openSettings opens the settings screen over the menu.
func (m *Menu) openSettings() {
	m.nameFocus = false
	m.screen = newSettingsScreen(m.prefs, m.fonts, false)
	m.ui.read() // the cursor where it is now, not a move
}

// toggleMute mutes or unmutes (M), and says so.
func (m *Menu) toggleMute() {
	m.note, m.noteAt = "sound on", time.Now()
	if m.prefs.ToggleMute() {
		m.note = "sound muted"
	}
}

// Prefs returns the settings the menu changes.
func (m *Menu) Prefs() *settingsui.Prefs { return m.prefs }

// mouse selects the row under a moving cursor, joins the row clicked and
// focuses the address field clicked.
func (m *Menu) mouse() {
	x, y := ebiten.CursorPosition()
	moved := m.mouseSeen && (x != m.mouseX || y != m.mouseY)
	m.mouseX, m.mouseY, m.mouseSeen = x, y, true
	click := inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
	if !moved && !click {
		return
	}
	fx, fy := float64(x), float64(y)
	if click && settingsRect.Contains(fx, fy) {
		m.openSettings()
		return
	}
	if click && nameRect.Contains(fx, fy) {
		m.nameFocus = true
		return
	}
	if click {
		m.nameFocus = false
	}
	if click && fx >= menuX && fx < menuX+menuW && fy >= fieldY && fy < fieldY+fieldH {
		m.list.SetFocus(lobby.FocusAddress)
		return
	}
	i, ok := m.rowAt(fx, fy)
	if !ok {
		return
	}
	m.list.Select(i)
	if click && m.list.Rows()[i].Kind == lobby.RowMatch && watchButton(i-m.first).Contains(fx, fy) {
		m.act(m.list.Watch())
	} else if click {
		m.act(m.list.Enter())
	}
}

// watchButton is where the selected match row k (from the top shown) draws
// its watch button.
func watchButton(k int) settingsui.Rect {
	y := menuY + menuHeadH + float64(k)*menuRowH
	return settingsui.Rect{X: menuX + menuCols.ping - 176, Y: y + 6, W: 84, H: menuRowH - 12}
}

// rowAt returns the list row at the screen point (x, y).
func (m *Menu) rowAt(x, y float64) (int, bool) {
	top := menuY + menuHeadH
	if x < menuX || x >= menuX+menuW || y < top || y >= top+float64(m.rowsShown)*menuRowH {
		return 0, false
	}
	return m.first + int((y-top)/menuRowH), true
}

// act carries out what Enter (or a click) asked for.
func (m *Menu) act(a lobby.Action) {
	m.cfg.Sound.Click()
	switch a.Kind {
	case lobby.ActionInvalid:
		m.errLine = a.Err.Error()
	case lobby.ActionJoin:
		if a.Watch {
			if m.cfg.Watch == nil {
				m.errLine = "watching is not available here"
				return
			}
			m.start("watching "+a.Name, func(ctx context.Context) (Scene, error) { return m.cfg.Watch(ctx, a.URL, a.Match) })
			return
		}
		m.start(a.Name, func(ctx context.Context) (Scene, error) { return m.cfg.Join(ctx, a.URL, a.Match) })
	case lobby.ActionHost:
		if m.cfg.Host == nil {
			m.errLine = "hosting is not available here"
			return
		}
		m.start(hostWhat, m.cfg.Host)
	case lobby.ActionReplay:
		if m.cfg.Replay == nil {
			m.errLine = "replays are not available here"
			return
		}
		m.start("the replay of "+a.Name, func(ctx context.Context) (Scene, error) { return m.cfg.Replay(ctx, a.URL) })
	}
}

// start runs a join (or host) in the background.
func (m *Menu) start(what string, join func(context.Context) (Scene, error)) {
	if join == nil {
		m.errLine = "joining is not available here"
		return
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.joining, m.joinStart, m.cancelJoin, m.errLine = what, time.Now(), cancel, ""
	go func() {
		s, err := join(ctx)
		m.joined <- joinResult{scene: s, err: err, what: what}
	}()
}

// awaitJoin hands over once the join succeeds, shows its error if it
// fails, and cancels it on Escape.
func (m *Menu) awaitJoin() {
	if inpututil.IsKeyJustPressed(ebiten.KeyEscape) && m.cancelJoin != nil {
		m.cancelJoin() // the result still arrives, as an error (or too late, as a match)
	}
	select {
	case r := <-m.joined:
		m.cancelJoin()
		m.joining, m.cancelJoin = "", nil
		if r.err != nil {
			m.cfg.Logger.Warn("join failed", "match", r.what, "err", r.err)
			m.errLine = fmt.Sprintf("could not join %s: %s", r.what, lobby.Reason(r.err))
			if r.what == hostWhat {
				m.errLine = "could not host a match: " + lobby.Reason(r.err)
			}
			return
		}
		m.next = r.scene
		m.stop() // no more pings: the match has the window now
	default:
	}
}

// Draw draws the menu.
func (m *Menu) Draw(dst *ebiten.Image) {
	f := m.fonts
	now := time.Now()
	m.drawBackground(dst)

	drawText(dst, "SIGHTLINE", f.huge, ScreenWidth/2, 48, text.AlignCenter, colSelf)
	drawText(dst, "matches on your LAN", f.normal, ScreenWidth/2, 100, text.AlignCenter, colTextDim)

	rows := m.list.Rows()
	m.rowsShown = min(len(rows)-m.first, menuMaxRows)
	h := menuHeadH + menuMaxRows*menuRowH + 8
	panel(dst, menuX, menuY, menuW, h)
	hy := menuY + 10
	c := menuCols
	drawText(dst, "MATCH", f.small, menuX+c.name, hy, text.AlignStart, colTextDim)
	drawText(dst, "PLAYERS", f.small, menuX+c.players+50, hy, text.AlignEnd, colTextDim)
	drawText(dst, "ADDRESS", f.small, menuX+c.addr, hy, text.AlignStart, colTextDim)
	drawText(dst, "PING", f.small, menuX+c.ping, hy, text.AlignEnd, colTextDim)
	box(dst, menuX+8, menuY+menuHeadH-4, menuW-16, 1, colPanelEdge)

	listFocus := m.list.Focus() == lobby.FocusList && m.joining == "" && !m.nameFocus
	for k := range m.rowsShown {
		i := m.first + k
		r := rows[i]
		y := menuY + menuHeadH + float64(k)*menuRowH
		sel := i == m.list.Selected()
		tc := colText
		if sel {
			a := 0.10
			if listFocus {
				a = 0.22
			}
			box(dst, menuX+8, y+2, menuW-16, menuRowH-4, fade(colSelf, a))
			tc = colSelf
		}
		ty := y + 8
		if r.Kind == lobby.RowHost {
			hc := colAccent
			if sel {
				hc = colSelf
			}
			drawText(dst, "+  Host a match here", f.normal, menuX+c.name, ty, text.AlignStart, hc)
			drawText(dst, "play here; players on your LAN can join", f.small, menuX+c.addr, ty+2, text.AlignStart, colTextDim)
			continue
		}
		if r.Kind == lobby.RowReplay {
			drawText(dst, "Replay: "+r.Replay.Name(), f.normal, menuX+c.name, ty, text.AlignStart, tc)
			drawText(dst, fmt.Sprintf("a match hosted here · %.1f MB · Enter plays it", float64(r.Replay.Bytes)/1e6), f.small, menuX+c.addr, ty+2, text.AlignStart, colTextDim)
			continue
		}
		mt := r.Match
		if inv := r.Invite(); inv != "" {
			// Two lines: the match's, and under it the host's invite link
			// for players beyond the LAN.
			ty = y + 1
			drawText(dst, clip("invite link: "+inv, f.small, c.ping-c.name), f.small, menuX+c.name, y+19, text.AlignStart, colAccent)
		}
		drawText(dst, clip(r.Name(), f.normal, c.players-c.name-40), f.normal, menuX+c.name, ty, text.AlignStart, tc)
		pc := tc
		players, most := r.Players()
		if players >= most {
			pc = colBad
		}
		drawText(dst, fmt.Sprintf("%d/%d", players, most), f.normal, menuX+c.players+50, ty, text.AlignEnd, pc)
		addrW := c.ping - c.addr - 90
		if sel && m.cfg.Watch != nil {
			addrW = c.ping - c.addr - 190
			b := watchButton(k)
			box(dst, b.X, b.Y, b.W, b.H, fade(colSelf, 0.25))
			drawText(dst, "WATCH (V)", f.small, b.X+b.W/2, b.Y+4, text.AlignCenter, colText)
		}
		drawText(dst, clip(mt.URL, f.normal, addrW), f.normal, menuX+c.addr, ty, text.AlignStart, tc)
		drawText(dst, r.Ping.String(), f.normal, menuX+c.ping, ty, text.AlignEnd, pingColor(r.Ping))
	}
	if m.list.Matches() == 0 {
		y := menuY + menuHeadH + float64(m.rowsShown)*menuRowH + 30
		drawText(dst, "no matches heard yet: hosts on your LAN appear here by themselves", f.normal, ScreenWidth/2, y, text.AlignCenter, colTextDim)
	}
	if len(rows) > menuMaxRows {
		drawText(dst, fmt.Sprintf("%d–%d of %d", m.first+1, m.first+m.rowsShown, len(rows)), f.small, menuX+menuW-12, menuY+h-20, text.AlignEnd, colTextDim)
	}

	m.drawField(dst, now)
	if m.errLine != "" {
		drawText(dst, clip(m.errLine, f.normal, menuW), f.normal, ScreenWidth/2, fieldY+fieldH+18, text.AlignCenter, colBad)
	}

	hint := "↑↓ select · Enter join · V watch · click a match · Tab address, name · F2 settings · M mute"
	switch {
	case m.nameFocus:
		hint = "type your name: it is saved, and used when you join or host · Enter or Esc back to the list"
	case m.list.Focus() == lobby.FocusAddress:
		hint = "type http://HOST:PORT or HOST:PORT · Enter join · Tab your name · Esc back to the list"
	}
	drawText(dst, hint, f.small, ScreenWidth-14, ScreenHeight-24, text.AlignEnd, colTextDim)
	drawText(dst, m.cfg.Listening, f.small, 14, ScreenHeight-24, text.AlignStart, colTextDim)
	if m.note != "" && now.Sub(m.noteAt) < 3*time.Second {
		drawText(dst, m.note, f.normal, ScreenWidth/2, fieldY+fieldH+40, text.AlignCenter, colAccent)
	}
	m.drawName(dst, now)
	m.drawSettingsButton(dst)

	if m.joining != "" {
		m.drawJoining(dst, now)
	}
	if m.screen != nil {
		m.screen.draw(dst, now)
	}
}

// drawName draws the name field, with a cursor while it has the keys.
func (m *Menu) drawName(dst *ebiten.Image, now time.Time) {
	f := m.fonts
	r := nameRect
	focus := m.nameFocus && m.joining == ""
	drawText(dst, "your name", f.small, r.X+2, r.Y-18, text.AlignStart, colTextDim)
	panel(dst, r.X, r.Y, r.W, r.H)
	if focus {
		outline(dst, r, colAccent)
	}
	s, c := m.name.Text(), colSelf
	if s == "" {
		s, c = m.prefs.Name(), colTextDim // the fallback, until one is typed
	}
	if focus && (now.UnixMilli()/500)%2 == 0 {
		s += "_"
	}
	drawText(dst, clip(s, f.normal, r.W-20), f.normal, r.X+10, r.Y+8, text.AlignStart, c)
}

// drawSettingsButton draws the button that opens the settings screen.
func (m *Menu) drawSettingsButton(dst *ebiten.Image) {
	r := settingsRect
	panel(dst, r.X, r.Y, r.W, r.H)
	drawText(dst, "Settings  F2", m.fonts.normal, r.X+r.W/2, r.Y+8, text.AlignCenter, colText)
}

// drawBackground fills the screen with the arena's floor and grid.
func (m *Menu) drawBackground(dst *ebiten.Image) { drawFloor(dst) }

// drawField draws the address field, with a cursor while it has the keys.
func (m *Menu) drawField(dst *ebiten.Image, now time.Time) {
	f := m.fonts
	focus := m.list.Focus() == lobby.FocusAddress && m.joining == ""
	drawText(dst, "or join by address", f.small, menuX+4, fieldY-20, text.AlignStart, colTextDim)
	panel(dst, menuX, fieldY, menuW, fieldH)
	if focus {
		edge := colAccent
		box(dst, menuX, fieldY, menuW, 2, edge)
		box(dst, menuX, fieldY+fieldH-2, menuW, 2, edge)
		box(dst, menuX, fieldY, 2, fieldH, edge)
		box(dst, menuX+menuW-2, fieldY, 2, fieldH, edge)
	}
	s, c := m.list.Address(), colText
	if s == "" && !focus {
		s, c = "http://HOST:8080", colTextDim
	}
	// Show the end of a long address.
	for r := []rune(s); len(r) > 0 && textWidth(s, f.normal) > menuW-40; {
		r = r[1:]
		s = string(r)
	}
	if focus && (now.UnixMilli()/500)%2 == 0 {
		s += "_"
	}
	drawText(dst, s, f.normal, menuX+14, fieldY+9, text.AlignStart, c)
}

// drawJoining covers the menu while a join is in flight.
func (m *Menu) drawJoining(dst *ebiten.Image, now time.Time) {
	f := m.fonts
	box(dst, 0, 0, ScreenWidth, ScreenHeight, color.RGBA{0, 0, 0, 0x80})
	w, h := 640.0, 110.0
	x, y := (ScreenWidth-w)/2, (ScreenHeight-h)/2
	panel(dst, x, y, w, h)
	dots := int(now.Sub(m.joinStart)/(400*time.Millisecond))%3 + 1
	verb := "joining "
	if m.joining == hostWhat {
		verb = "hosting "
	}
	drawText(dst, clip(verb+m.joining, f.big, w-80)+"..."[:dots], f.big, ScreenWidth/2, y+24, text.AlignCenter, colText)
	drawText(dst, fmt.Sprintf("%.0f s · Esc cancels", time.Since(m.joinStart).Seconds()), f.small, ScreenWidth/2, y+70, text.AlignCenter, colTextDim)
}

// pingColor grades a ping: green on a LAN, amber when slow, red with no answer.
func pingColor(p lobby.Ping) color.RGBA {
	switch {
	case p.At.IsZero():
		return colTextDim
	case p.Err != nil:
		return colBad
	case p.RTT < 50*time.Millisecond:
		return colGood
	case p.RTT < 150*time.Millisecond:
		return colAccent
	}
	return colBad
}
