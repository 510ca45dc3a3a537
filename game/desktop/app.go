package desktop

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// A Scene is what the window shows: the start menu (Menu) or a match (Game).
type Scene interface {
	Update() error
	Draw(screen *ebiten.Image)
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
	// start as a PNG at this path and ends the loop. When the scene is a
	// match, what it drew where (Drawn) goes beside it as JSON, at the
	// same path with ".json" for its extension.
	Screenshot string
	// ExitAfter ends the loop this long after the start (0: never).
	ExitAfter time.Duration
	// Quit, when closed, ends the loop (say, on Ctrl-C).
	Quit <-chan struct{}
}

// App is the ebiten.Game the window runs: it shows one scene at a time,
// switches when the scene hands over, and keeps the frame cap, the timed
// exit and the screenshot for all of them.
type App struct {
	scene Scene
	opt   Options
	start time.Time

	lastFrame time.Time
	shotDone  bool
	shotErr   error
	canvas    *ebiten.Image
}

// NewApp returns an app showing first.
func NewApp(first Scene, opt Options) *App {
	return &App{scene: first, opt: opt, start: time.Now()}
}

// Scene returns the scene shown now (after the loop: the last one shown).
func (a *App) Scene() Scene { return a.scene }

// RunApp opens the window and runs a until the window closes, ExitAfter
// passes, Quit closes or a scene fails.
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
// ExitAfter passes or it fails.
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
	if a.opt.ExitAfter > 0 && time.Since(a.start) >= a.opt.ExitAfter && (a.opt.Screenshot == "" || a.shotDone) {
		return ebiten.Termination
	}
	if h, ok := a.scene.(handover); ok {
		if next := h.Next(); next != nil {
			a.scene = next
		}
	}
	return a.scene.Update()
}

// Draw draws the scene. With a Screenshot pending and its time come, it
// also copies the frame offscreen and saves it.
func (a *App) Draw(screen *ebiten.Image) {
	now := time.Now()
	a.scene.Draw(screen)
	if a.opt.Screenshot != "" && !a.shotDone && a.opt.ExitAfter > 0 && now.Sub(a.start) >= a.opt.ExitAfter {
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
