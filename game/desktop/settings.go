package desktop

import (
	"context"
	"fmt"
	"image/color"
	"log/slog"
	"runtime"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/sightline-game/sightline/game/desktop/clipboard"
	"github.com/sightline-game/sightline/game/desktop/howto"
	"github.com/sightline-game/sightline/game/desktop/settingsui"
	"github.com/sightline-game/sightline/game/desktop/text"
	"github.com/sightline-game/sightline/game/settings"
)

// VolumeSetter is the sound's volume control: the master and effects
// volumes (0..1) and mute, applied at once.
type VolumeSetter interface {
	SetVolume(master, effects float64, mute bool)
}

// PrefsConfig sets up NewPrefs.
type PrefsConfig struct {
	// Store keeps the settings between runs (default: memory, this run only).
	Store settings.Store
	// Volume, if not nil, gets the volumes and mute whenever they change.
	Volume VolumeSetter
	// Name, if set, is the player's name for this run (the -name flag):
	// not saved unless the player changes it.
	Name string
	// Fallback is the name when none is stored or given.
	Fallback string
	// Where says where the settings are kept, for the settings screen.
	Where string
	// Logger receives a store that cannot be read or written.
	Logger *slog.Logger
}

// NewPrefs loads the settings from cfg.Store and returns them ready to
// share between the menu and the matches: changes are applied to the sound
// (cfg.Volume) and the window (ebiten.SetFullscreen) and saved. Call Apply
// on the result once to apply the loaded settings.
func NewPrefs(cfg PrefsConfig) *settingsui.Prefs {
	pc := settingsui.PrefsConfig{
		Store: cfg.Store, Name: cfg.Name, Fallback: cfg.Fallback, Where: cfg.Where, Logger: cfg.Logger,
		SetFullscreen: ebiten.SetFullscreen,
	}
	if cfg.Volume != nil {
		pc.SetVolume = cfg.Volume.SetVolume
	}
	return settingsui.NewPrefs(pc)
}

// uiReader reads the keyboard, the mouse and the fingers for the settings
// screen and the pause menu. A finger is a mouse: one that lands clicks
// where it lands, and while it stays down it holds and drags.
type uiReader struct {
	runes          []rune
	mouseX, mouseY int
	mouseSeen      bool
	landed         []ebiten.TouchID
	finger         ebiten.TouchID // the finger that clicked, while fingerDown
	fingerDown     bool
}

// uiKeys maps keys to the settings screen's, each with key repeat.
var uiKeys = []struct {
	k   ebiten.Key
	key settingsui.Keys
}{
	{ebiten.KeyArrowUp, settingsui.KeyUp},
	{ebiten.KeyArrowDown, settingsui.KeyDown},
	{ebiten.KeyArrowLeft, settingsui.KeyLeft},
	{ebiten.KeyArrowRight, settingsui.KeyRight},
	{ebiten.KeyEnter, settingsui.KeyEnter},
	{ebiten.KeyNumpadEnter, settingsui.KeyEnter},
	{ebiten.KeySpace, settingsui.KeySpace},
	{ebiten.KeyEscape, settingsui.KeyEscape},
	{ebiten.KeyBackspace, settingsui.KeyBackspace},
	{ebiten.KeyM, settingsui.KeyMute},
	{ebiten.KeyMinus, settingsui.KeyMinus},
	{ebiten.KeyNumpadSubtract, settingsui.KeyMinus},
	{ebiten.KeyEqual, settingsui.KeyPlus},
	{ebiten.KeyNumpadAdd, settingsui.KeyPlus},
}

// read samples the devices; moved says whether the cursor moved since the
// last read.
func (r *uiReader) read() (in settingsui.Input, moved bool) {
	for _, k := range uiKeys {
		if repeat(k.k) {
			in.Pressed |= k.key
		}
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyTab) {
		if ebiten.IsKeyPressed(ebiten.KeyShift) {
			in.Pressed |= settingsui.KeyShiftTab
		} else {
			in.Pressed |= settingsui.KeyTab
		}
	}
	r.runes = ebiten.AppendInputChars(r.runes[:0])
	in.Typed = r.runes
	x, y := ebiten.CursorPosition()
	moved = r.mouseSeen && (x != r.mouseX || y != r.mouseY)
	r.mouseX, r.mouseY, r.mouseSeen = x, y, true
	in.MouseX, in.MouseY = float64(x), float64(y)
	in.Click = inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
	in.Held = ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft)
	_, in.Wheel = ebiten.Wheel()
	r.landed = inpututil.AppendJustPressedTouchIDs(r.landed[:0])
	switch {
	case len(r.landed) > 0:
		r.finger, r.fingerDown = r.landed[0], true
		in.Click = true
	case r.fingerDown && inpututil.IsTouchJustReleased(r.finger):
		r.fingerDown = false
	}
	if r.fingerDown {
		fx, fy := ebiten.TouchPosition(r.finger)
		in.MouseX, in.MouseY, in.Held, moved = float64(fx), float64(fy), true, true
	}
	return in, moved
}

// settingsScreen is the settings screen over the menu or a match: the form
// (package settingsui) read from the devices, its changes applied and saved
// through the prefs at once.
type settingsScreen struct {
	prefs   *settingsui.Prefs
	form    *settingsui.Form
	fonts   *fonts
	inMatch bool // a new name counts from the next match
	saveErr error
}

func newSettingsScreen(p *settingsui.Prefs, f *fonts, inMatch bool) *settingsScreen {
	return &settingsScreen{prefs: p, form: settingsui.NewForm(p.Settings()), fonts: f, inMatch: inMatch}
}

// update applies a frame of input; it reports whether the screen closed.
func (s *settingsScreen) update(in settingsui.Input) (closed bool) {
	r := s.form.Update(in)
	if r.Changed {
		s.saveErr = s.prefs.Set(s.form.Settings())
	}
	return r.Closed
}

// draw draws the screen over dst, dimming what is under it.
func (s *settingsScreen) draw(dst *ebiten.Image, now time.Time) {
	f := s.fonts
	ui := s.form
	box(dst, 0, 0, ScreenWidth, ScreenHeight, color.RGBA{0, 0, 0, 0x90})
	const x, y, w, h = settingsui.PanelX, settingsui.PanelY, settingsui.PanelW, settingsui.PanelH
	panel(dst, x, y, w, h)
	box(dst, x, y, w, h, color.RGBA{0x0c, 0x0f, 0x15, 0x90}) // a darker panel than the HUD's
	drawText(dst, "SETTINGS", f.big, ScreenWidth/2, y+22, text.AlignCenter, colSelf)
	for _, fl := range settingsui.Fields {
		row := settingsui.RowRect(fl)
		c := settingsui.ControlRect(fl)
		focus := ui.Focus() == fl
		lc := colText
		if focus {
			box(dst, row.X+8, row.Y+3, row.W-16, row.H-6, fade(colSelf, 0.14))
			lc = colSelf
		}
		ty := row.Y + (row.H-18)/2
		if fl != settingsui.FieldDone {
			drawText(dst, fl.Label(), f.normal, x+28, ty, text.AlignStart, lc)
		}
		switch {
		case fl == settingsui.FieldName:
			s.drawName(dst, c, focus, now)
		case fl.Slider():
			s.drawSlider(dst, c, ui.Volume(fl), ui.Settings().Mute)
		case fl.Toggle():
			drawSwitch(dst, f, c, ui.Value(fl))
		case fl == settingsui.FieldDone:
			edge := colPanelEdge
			if focus {
				edge = colSelf
			}
			box(dst, c.X, c.Y, c.W, c.H, fade(colSelf, 0.18))
			outline(dst, c, edge)
			drawText(dst, fl.Label(), f.normal, c.X+c.W/2, c.Y+6, text.AlignCenter, lc)
		}
	}
	foot := y + h - 42
	switch {
	case s.saveErr != nil:
		drawText(dst, clip("not saved: "+s.saveErr.Error(), f.small, w-40), f.small, ScreenWidth/2, foot, text.AlignCenter, colBad)
	case s.prefs.Where() != "":
		drawText(dst, clip("saved in "+s.prefs.Where(), f.small, w-40), f.small, ScreenWidth/2, foot, text.AlignCenter, colTextDim)
	}
	hint := "↑↓ choose · ←→ or click change · Enter toggle · Esc back"
	if s.inMatch && ui.Focus() == settingsui.FieldName {
		hint = "a new name counts from your next match · Esc back"
	}
	drawText(dst, hint, f.small, ScreenWidth/2, foot+18, text.AlignCenter, colTextDim)
}

// drawName draws the name field, with a cursor while it has the keys.
func (s *settingsScreen) drawName(dst *ebiten.Image, c settingsui.Rect, focus bool, now time.Time) {
	f := s.fonts
	box(dst, c.X, c.Y, c.W, c.H, colBarBg)
	edge := colPanelEdge
	if focus {
		edge = colAccent
	}
	outline(dst, c, edge)
	t, tc := s.form.NameText(), colText
	if t == "" && !focus {
		t, tc = "(your name)", colTextDim
	}
	if focus && (now.UnixMilli()/500)%2 == 0 {
		t += "_"
	}
	drawText(dst, t, f.normal, c.X+10, c.Y+6, text.AlignStart, tc)
}

// drawSlider draws a volume: the track, its filled part, the knob and the
// value in per cent (dimmed while muted).
func (s *settingsScreen) drawSlider(dst *ebiten.Image, c settingsui.Rect, v float64, muted bool) {
	fill := colSelf
	if muted {
		fill = colTextDim
	}
	ty := c.Y + c.H/2 - 3
	box(dst, c.X, ty, c.W, 6, colBarBg)
	box(dst, c.X, ty, c.W*v, 6, fill)
	kx := c.X + c.W*v
	box(dst, kx-5, c.Y+3, 10, c.H-6, colText)
	val := fmt.Sprintf("%d%%", int(v*100+0.5))
	if muted {
		val += " (muted)"
	}
	drawText(dst, val, s.fonts.normal, c.X+c.W+16, c.Y+6, text.AlignStart, colText)
}

// drawSwitch draws an on/off switch.
func drawSwitch(dst *ebiten.Image, f *fonts, c settingsui.Rect, on bool) {
	if on {
		box(dst, c.X, c.Y, c.W, c.H, fade(colGood, 0.35))
		outline(dst, c, colGood)
		drawText(dst, "ON", f.normal, c.X+c.W/2, c.Y+6, text.AlignCenter, colGood)
		return
	}
	box(dst, c.X, c.Y, c.W, c.H, colBarBg)
	outline(dst, c, colPanelEdge)
	drawText(dst, "OFF", f.normal, c.X+c.W/2, c.Y+6, text.AlignCenter, colTextDim)
}

// outline draws a rectangle's edges, 2 px wide.
func outline(dst *ebiten.Image, r settingsui.Rect, c color.Color) {
	box(dst, r.X, r.Y, r.W, 2, c)
	box(dst, r.X, r.Y+r.H-2, r.W, 2, c)
	box(dst, r.X, r.Y, 2, r.H, c)
	box(dst, r.X+r.W-2, r.Y, 2, r.H, c)
}

// pauseState is the match's pause menu (Esc) and the settings screen it
// opens. The match goes on underneath: only the player's own input stops.
// Both are laid out on the landscape screen; on an upright one they are
// drawn centred through layer, and the fingers and the cursor are moved
// back by the same offset.
type pauseState struct {
	menu   *settingsui.Pause // nil when closed
	screen *settingsScreen   // nil when closed
	ui     uiReader
	quit   bool          // Quit game was chosen
	layer  *ebiten.Image // the landscape screen they are drawn on, on an upright one
	// copied brings the outcome of "Copy join link" from the clipboard
	// (nil when no copy is under way); copyNote says it under the menu.
	copied   chan copyOutcome
	copyNote string
}

// copyOutcome is what became of a copy of link to the clipboard.
type copyOutcome struct {
	link string
	err  error
}

// copyTimeout bounds a copy to the clipboard (a program to start, or the
// browser to answer).
const copyTimeout = 5 * time.Second

// startCopy puts link on the clipboard in the background: the clipboard
// program or the browser's promise may take longer than a frame.
func (p *pauseState) startCopy(link string) {
	if p.copied != nil {
		return
	}
	if link == "" {
		p.copyNote = "no join link yet"
		return
	}
	p.copied = make(chan copyOutcome, 1)
	p.copyNote = "copying…"
	go func(done chan<- copyOutcome) {
		ctx, cancel := context.WithTimeout(context.Background(), copyTimeout)
		defer cancel()
		done <- copyOutcome{link: link, err: clipboard.Write(ctx, link)}
	}(p.copied)
}

// pollCopy takes the outcome of a copy under way, if it has come.
func (p *pauseState) pollCopy() {
	if p.copied == nil {
		return
	}
	select {
	case r := <-p.copied:
		p.copied = nil
		if r.err != nil {
			p.copyNote = "copy failed: " + r.err.Error()
		} else {
			p.copyNote = "copied: " + r.link
		}
	default:
	}
}

// uiOffset is where the landscape screen the pause menu and the settings
// are laid out on sits on the actual screen: (0, 0) in landscape.
func (g *Game) uiOffset() (x, y float64) {
	return (g.sw - ScreenWidth) / 2, (g.sh - ScreenHeight) / 2
}

// open reports whether the pause menu or the settings screen has the keys.
func (p *pauseState) open() bool { return p.menu != nil || p.screen != nil }

// updatePause opens the pause menu on Esc (the chat line closed), mutes on
// M, and runs the menu and the settings screen while they are open. It
// reports whether they hold the keys this frame (the player then stands
// still and holds fire).
func (g *Game) updatePause(escape bool, now time.Time) bool {
	p := &g.pause
	p.pollCopy()
	if !p.open() {
		switch {
		case g.typing:
		case escape:
			p.menu = settingsui.NewPause(g.cfg.Leave != nil, runtime.GOOS != "js")
			if g.cfg.JoinLink != nil {
				p.menu.OfferCopy()
			}
			p.copyNote = ""
			p.ui.read() // the cursor where it is now, not a move
			return true
		case inpututil.IsKeyJustPressed(ebiten.KeyM):
			if g.prefs.ToggleMute() {
				g.hud.notice(now, "sound muted (M)")
			} else {
				g.hud.notice(now, "sound on (M)")
			}
		}
		return false
	}
	in, moved := p.ui.read()
	ox, oy := g.uiOffset()
	in.MouseX, in.MouseY = in.MouseX-ox, in.MouseY-oy
	if p.screen != nil {
		before := g.prefs.Settings()
		closed := p.screen.update(in)
		if after := g.prefs.Settings(); after.Overlay != before.Overlay {
			g.overlay = after.Overlay
		}
		if closed {
			p.screen = nil
		}
		return true
	}
	item, ok := p.menu.Update(in, moved)
	if !ok {
		return true
	}
	switch item {
	case settingsui.PauseResume:
		p.menu = nil
	case settingsui.PauseSettings:
		p.screen = newSettingsScreen(g.prefs, g.fonts, true)
	case settingsui.PauseHowTo:
		p.menu = nil
		if g.howto == nil {
			g.howto = howto.Open(g.prefs, true)
		}
		g.howto.Show()
	case settingsui.PauseLeave:
		p.menu = nil
		g.next = g.cfg.Leave()
	case settingsui.PauseQuit:
		p.quit = true
	case settingsui.PauseCopy:
		p.startCopy(g.cfg.JoinLink())
	}
	return true
}

// drawPause draws the pause menu or the settings screen, if open.
func (g *Game) drawPause(dst *ebiten.Image, now time.Time) {
	p := &g.pause
	if !p.open() {
		return
	}
	on := dst
	ox, oy := g.uiOffset()
	if ox != 0 || oy != 0 {
		if p.layer == nil {
			p.layer = ebiten.NewImage(ScreenWidth, ScreenHeight)
		}
		p.layer.Clear()
		on = p.layer
	}
	dim := color.RGBA{0, 0, 0, 0x70}
	if p.screen != nil {
		dim = color.RGBA{0, 0, 0, 0x90}
		p.screen.draw(on, now)
	} else {
		drawPauseMenu(on, g.fonts, p.menu, p.copyNote)
		g.drawn.PauseCopy = p.copyNote
		g.drawJoinHint(on)
		g.drawn.Paused = true
	}
	if on == dst {
		return
	}
	// The layer dims what is under it; the bands of the screen beside it
	// are dimmed alike.
	top, bottom := max(oy, 0), max(g.sh-oy-ScreenHeight, 0)
	left, right := max(ox, 0), max(g.sw-ox-ScreenWidth, 0)
	box(dst, 0, 0, g.sw, top, dim)
	box(dst, 0, g.sh-bottom, g.sw, bottom, dim)
	box(dst, 0, top, left, g.sh-top-bottom, dim)
	box(dst, g.sw-right, top, right, g.sh-top-bottom, dim)
	var op ebiten.DrawImageOptions
	op.GeoM.Translate(ox, oy)
	dst.DrawImage(p.layer, &op)
}

// drawPauseMenu draws the pause menu in the middle of the screen, and
// under it note (what became of "Copy join link"), else a reminder that
// the match goes on.
func drawPauseMenu(dst *ebiten.Image, f *fonts, m *settingsui.Pause, note string) {
	box(dst, 0, 0, ScreenWidth, ScreenHeight, color.RGBA{0, 0, 0, 0x70})
	items := m.Items()
	y := settingsui.PauseY(len(items))
	h := settingsui.PauseHeadH + float64(len(items))*settingsui.PauseRowH + 20
	panel(dst, settingsui.PauseX, y, settingsui.PauseW, h)
	box(dst, settingsui.PauseX, y, settingsui.PauseW, h, color.RGBA{0x0c, 0x0f, 0x15, 0x90})
	drawText(dst, "PAUSED", f.big, ScreenWidth/2, y+18, text.AlignCenter, colSelf)
	for i, it := range items {
		r := m.ItemRect(i)
		c := colText
		if i == m.Selected() {
			box(dst, r.X+10, r.Y+4, r.W-20, r.H-8, fade(colSelf, 0.2))
			c = colSelf
		}
		drawText(dst, it.Label(), f.normal, ScreenWidth/2, r.Y+(r.H-18)/2, text.AlignCenter, c)
	}
	if note != "" {
		c := colAccent
		if strings.HasPrefix(note, "copy failed") {
			c = colBad
		}
		drawText(dst, clip(note, f.small, ScreenWidth-40), f.small, ScreenWidth/2, y+h+8, text.AlignCenter, c)
		return
	}
	drawText(dst, "the match goes on · Esc resumes", f.small, ScreenWidth/2, y+h+8, text.AlignCenter, colTextDim)
}

// repeat reports whether key was pressed this frame or is held long enough
// to repeat.
func repeat(key ebiten.Key) bool {
	d := inpututil.KeyPressDuration(key)
	return d == 1 || (d > 24 && d%4 == 0)
}

// clip cuts s to fit w pixels, with an ellipsis if cut.
func clip(s string, face *face, w float64) string {
	if textWidth(s, face) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && textWidth(string(r)+"…", face) > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// joinHintW is the width of the pause menu's "how others join" panel.
const joinHintW = 760.0

// drawJoinHint draws, under the pause menu of a match hosted here, how
// others join it (Config.JoinHint) in full: the invite link or the LAN
// address, wrapped if long; the menu's "Copy join link" puts the link on
// the clipboard.
func (g *Game) drawJoinHint(dst *ebiten.Image) {
	if g.cfg.JoinHint == nil {
		return
	}
	s := g.cfg.JoinHint()
	if s == "" {
		return
	}
	f := g.fonts
	lines := text.Wrap(s, f.normal.metrics, joinHintW-32)
	n := len(g.pause.menu.Items())
	y := settingsui.PauseY(n) + settingsui.PauseHeadH + float64(n)*settingsui.PauseRowH + 20 + 36
	h := 40 + float64(len(lines))*22
	x := (ScreenWidth - joinHintW) / 2
	panel(dst, x, y, joinHintW, h)
	box(dst, x, y, joinHintW, h, color.RGBA{0x0c, 0x0f, 0x15, 0x90})
	drawText(dst, "HOW OTHERS JOIN", f.small, ScreenWidth/2, y+10, text.AlignCenter, colAccent)
	for i, l := range lines {
		drawText(dst, l, f.normal, ScreenWidth/2, y+30+float64(i)*22, text.AlignCenter, colText)
	}
	g.drawn.PauseJoinHint = append(g.drawn.PauseJoinHint, lines...)
}
