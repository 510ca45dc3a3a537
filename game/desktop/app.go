package desktop

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// A Scene is what the window shows: the start menu (Menu) or a match (Game).
type Scene interface {
	Update() error
	Draw(screen *ebiten.Image)
}

// A liveScene is a scene that is not live from its first frame: a match
// is live once the server's world is on screen. App counts ExitAfter from
// then, so that a slow start (a busy machine, a slow join) does not eat a
// timed run.
type liveScene interface {
	// Live reports whether the scene shows what it is for.
	Live() bool
}

// A prelude is a scene shown before the one a run is timed by, as the
// connecting screen is before its match: ExitWhen is asked of it before it
// went live, and the clock starts again when it hands over.
type prelude interface {
	prelude()
}

// A handover is a scene that hands the window to another when it is done,
// as the menu does once a match is joined.
type handover interface {
	// Next returns the scene to show from now on, or nil to stay.
	Next() Scene
}

// Options are the window loop's own settings, whatever the scene.
type Options struct {
	// MaxFPS caps the frames drawn per second (0: no cap beyond vsync).
	// Under Xvfb there is no vsync, and software rendering would take
	// every core.
	MaxFPS int
	// Screenshot, with ExitAfter, saves the frame drawn ExitAfter after the
	// scene went live as a PNG at this path and ends the loop. When the
	// scene is a match, what it drew where (Drawn) goes beside it as
	// JSON, at the same path with ".json" for its extension.
	Screenshot string
	// ExitAfter ends the loop this long after the scene went live (0:
	// never): for a match, its first frame with the server's world; for
	// the menu, its first frame. The time the window, the join or the
	// first snapshot take to come does not count.
	ExitAfter time.Duration
	// ExitWhen, with ExitAfter, ends the loop sooner, as ExitAfter does
	// (the screenshot with it), at the first frame after the scene went
	// live for which it returns true: a run that waits for something to
	// happen in the match, with ExitAfter as its deadline.
	ExitWhen func(Scene) bool
	// EchoInput, if set, hears a line each time the loop sees a key, a
	// mouse button or a finger go down or up ("input: key Escape down",
	// "input: mouse left up", "input: touch down"), and "input: live" when
	// the scene goes live. It is for tests that drive the window from
	// outside (XTEST, DevTools): the loop reads the devices once a frame,
	// so a press and release that both fall between two frames of a busy
	// machine are never seen; a driver that waits for each line before the
	// next step loses none.
	EchoInput io.Writer
	// Quit, when closed, ends the loop (say, on Ctrl-C).
	Quit <-chan struct{}
}

// App is the ebiten.Game the window runs: it shows one scene at a time,
// switches when the scene hands over, and keeps the frame cap, the timed
// exit and the screenshot for all of them.
type App struct {
	scene Scene
	opt   Options
	live  time.Time // when the scene went live (zero: not yet)
	// whenMet: ExitWhen held once (the run ends, whatever it says next).
	whenMet bool

	lastFrame time.Time
	keys      []ebiten.Key     // scratch for echoInput
	touches   []ebiten.TouchID // scratch for echoInput
	shotDone  bool
	shotErr   error
	canvas    *ebiten.Image
}

// NewApp returns an app showing first.
func NewApp(first Scene, opt Options) *App {
	return &App{scene: first, opt: opt}
}

// Scene returns the scene shown now (after the loop: the last one shown).
func (a *App) Scene() Scene { return a.scene }

// RunApp opens the window and runs a until the window closes, ExitAfter
// passes since the scene went live, Quit closes or a scene fails.
func RunApp(a *App, title string) error {
	ebiten.SetWindowSize(ScreenWidth, ScreenHeight)
	ebiten.SetWindowTitle(title)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetRunnableOnUnfocused(true)
	ebiten.SetTPS(UpdateRate)
	err := ebiten.RunGameWithOptions(a, &ebiten.RunGameOptions{X11ClassName: "Sightline", X11InstanceName: "sightline"})
	if err != nil {
		return err
	}
	return a.shotErr
}

// Run opens the window and plays g until the window closes, the game's
// ExitAfter passes (counted from its first frame with the world) or it
// fails.
func Run(g *Game, title string) error {
	c := g.cfg
	return RunApp(NewApp(g, Options{MaxFPS: c.MaxFPS, Screenshot: c.Screenshot, ExitAfter: c.ExitAfter, Quit: c.Quit}), title)
}

// Update ends the loop when it is time, switches scenes on a handover and
// updates the scene shown.
func (a *App) Update() error {
	select {
	case <-a.opt.Quit:
		return ebiten.Termination
	default:
	}
	if a.due(time.Now()) && (a.opt.Screenshot == "" || a.shotDone) {
		return ebiten.Termination
	}
	if h, ok := a.scene.(handover); ok {
		if next := h.Next(); next != nil {
			if _, ok := a.scene.(prelude); ok {
				a.live, a.whenMet = time.Time{}, false
			}
			a.scene = next
		}
	}
	a.echoInput()
	return a.scene.Update()
}

// due reports whether ExitAfter has passed since the scene went live, or
// ExitWhen holds (asked of a prelude even before it went live).
func (a *App) due(now time.Time) bool {
	if a.opt.ExitAfter <= 0 {
		return false
	}
	_, pre := a.scene.(prelude)
	if a.live.IsZero() && !pre {
		return false
	}
	if !a.whenMet && a.opt.ExitWhen != nil && a.opt.ExitWhen(a.scene) {
		a.whenMet = true
	}
	return a.whenMet || (!a.live.IsZero() && now.Sub(a.live) >= a.opt.ExitAfter)
}

// noteLive marks the moment the scene goes live, once, after a frame was
// drawn: a scene without Live is live at its first frame.
func (a *App) noteLive(now time.Time) {
	if !a.live.IsZero() {
		return
	}
	if l, ok := a.scene.(liveScene); ok && !l.Live() {
		return
	}
	a.live = now
	if a.opt.EchoInput != nil {
		fmt.Fprintln(a.opt.EchoInput, "input: live")
	}
}

// echoMouse are the mouse buttons EchoInput tells of, with their names.
var echoMouse = []struct {
	b    ebiten.MouseButton
	name string
}{{ebiten.MouseButtonLeft, "left"}, {ebiten.MouseButtonRight, "right"}, {ebiten.MouseButtonMiddle, "middle"}}

// echoInput tells EchoInput of the keys, buttons and fingers that went
// down or up since the last frame, as the scene is about to see them.
func (a *App) echoInput() {
	w := a.opt.EchoInput
	if w == nil {
		return
	}
	a.keys = inpututil.AppendJustPressedKeys(a.keys[:0])
	for _, k := range a.keys {
		fmt.Fprintf(w, "input: key %s down\n", k)
	}
	a.keys = inpututil.AppendJustReleasedKeys(a.keys[:0])
	for _, k := range a.keys {
		fmt.Fprintf(w, "input: key %s up\n", k)
	}
	for _, m := range echoMouse {
		if inpututil.IsMouseButtonJustPressed(m.b) {
			fmt.Fprintf(w, "input: mouse %s down\n", m.name)
		}
		if inpututil.IsMouseButtonJustReleased(m.b) {
			fmt.Fprintf(w, "input: mouse %s up\n", m.name)
		}
	}
	a.touches = inpututil.AppendJustPressedTouchIDs(a.touches[:0])
	for range a.touches {
		fmt.Fprintln(w, "input: touch down")
	}
	a.touches = inpututil.AppendJustReleasedTouchIDs(a.touches[:0])
	for range a.touches {
		fmt.Fprintln(w, "input: touch up")
	}
}

// Draw draws the scene. With a Screenshot pending and its time come, it
// also copies the frame offscreen and saves it.
func (a *App) Draw(screen *ebiten.Image) {
	now := time.Now()
	a.scene.Draw(screen)
	a.noteLive(now)
	if a.opt.Screenshot != "" && !a.shotDone && a.due(now) {
		if a.canvas == nil || a.canvas.Bounds() != screen.Bounds() {
			a.canvas = ebiten.NewImage(screen.Bounds().Dx(), screen.Bounds().Dy())
		}
		a.canvas.Clear()
		a.canvas.DrawImage(screen, nil)
		a.shotErr = savePNG(a.canvas, a.opt.Screenshot)
		if r, ok := a.scene.(reporter); ok && a.shotErr == nil {
			a.shotErr = r.LastDrawn().writeJSON(strings.TrimSuffix(a.opt.Screenshot, filepath.Ext(a.opt.Screenshot)) + ".json")
		}
		a.shotDone = true
	}
	a.capFrameRate()
}

// capFrameRate sleeps out the rest of the frame's share of a second.
func (a *App) capFrameRate() {
	if a.opt.MaxFPS <= 0 {
		return
	}
	frame := time.Second / time.Duration(a.opt.MaxFPS)
	if !a.lastFrame.IsZero() {
		if d := frame - time.Since(a.lastFrame); d > 0 {
			time.Sleep(d)
		}
	}
	a.lastFrame = time.Now()
}

// Layout asks the scene for its logical screen when it picks one (a match
// does, by orientation); otherwise the screen is fixed at ScreenWidth x
// ScreenHeight. The window scales it, keeping its aspect ratio.
func (a *App) Layout(outsideWidth, outsideHeight int) (int, int) {
	if l, ok := a.scene.(interface{ Layout(int, int) (int, int) }); ok {
		return l.Layout(outsideWidth, outsideHeight)
	}
	return ScreenWidth, ScreenHeight
}
