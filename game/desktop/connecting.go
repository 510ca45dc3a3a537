package desktop

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"log/slog"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop/settingsui"
	"github.com/sightline-game/sightline/game/desktop/text"
)

// DefaultSnapshotTimeout is how long the connecting screen waits for the
// first snapshot once the channels are open, when its config says nothing.
const DefaultSnapshotTimeout = 15 * time.Second

// ConnectingConfig sets up the connecting screen.
type ConnectingConfig struct {
	// Context bounds every attempt (default: Background).
	Context context.Context
	// Target is the server joined, as the player gave it: shown, and named
	// when it cannot be reached.
	Target string
	// Join connects to the server and returns the game that plays its
	// match, telling onStage each stage of the connection as it is reached
	// (client.ConnectConfig.OnStage). It runs on a goroutine of its own;
	// its ctx ends when the player cancels.
	Join func(ctx context.Context, onStage func(client.Stage)) (*Game, error)
	// Back returns the scene a player who cancels goes to (the LAN menu);
	// nil ends the run instead (a game started to join one server).
	Back func() Scene
	// SnapshotTimeout bounds the wait for the first snapshot once the
	// channels are open (0: DefaultSnapshotTimeout).
	SnapshotTimeout time.Duration
	// Logger receives failed joins (default: discard).
	Logger *slog.Logger
}

// Connecting is the screen shown while a match is joined: each stage of
// the connection as it is reached, with its time, then the match once its
// first snapshot came; or, when the join fails, its likely cause and what
// to try, with Retry (Enter) and Back (Esc; Quit when there is nothing to
// go back to). Esc cancels a join in flight.
type Connecting struct {
	cfg   ConnectingConfig
	fonts *fonts
	input ConnectingInput

	at      *attempt  // the attempt shown
	game    *Game     // joined, waiting for its first snapshot
	open    time.Time // when the channels opened
	err     error     // why the attempt failed (nil: not failed)
	failure client.Failure
	next    Scene
	drawn   Drawn
}

// attempt is one try at joining: its stages, reported from the joining
// goroutine, and its result.
type attempt struct {
	start  time.Time
	cancel context.CancelFunc
	done   chan joinOutcome // buffered: the joining goroutine never blocks

	mu     sync.Mutex
	stages []client.Stage
}

type joinOutcome struct {
	game *Game
	err  error
}

func (a *attempt) reach(s client.Stage) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stages = append(a.stages, s)
}

// snapshot returns a copy of the stages reached.
func (a *attempt) snapshot() []client.Stage {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]client.Stage(nil), a.stages...)
}

// NewConnecting returns the connecting screen, its first attempt started.
func NewConnecting(cfg ConnectingConfig) *Connecting {
	if cfg.Context == nil {
		cfg.Context = context.Background()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.SnapshotTimeout <= 0 {
		cfg.SnapshotTimeout = DefaultSnapshotTimeout
	}
	c := &Connecting{cfg: cfg, fonts: newFonts()}
	c.start()
	return c
}

// start begins an attempt.
func (c *Connecting) start() {
	ctx, cancel := context.WithCancel(c.cfg.Context)
	a := &attempt{start: time.Now(), cancel: cancel, done: make(chan joinOutcome, 1)}
	c.at, c.game, c.err, c.failure = a, nil, nil, client.Failure{}
	go func() {
		g, err := c.cfg.Join(ctx, a.reach)
		a.done <- joinOutcome{game: g, err: err}
	}()
}

// abandon cancels the attempt in flight and closes what it joined, now or
// when its result comes.
func (c *Connecting) abandon() {
	a := c.at
	a.cancel()
	if c.game != nil {
		c.game.Close()
		c.game = nil
		return
	}
	go func() {
		if r := <-a.done; r.game != nil {
			r.game.Close()
		}
	}()
}

// fail shows err as the attempt's failure.
func (c *Connecting) fail(err error) {
	c.err = err
	c.failure = client.Explain(err, c.cfg.Target)
	if !errors.Is(err, context.Canceled) {
		c.cfg.Logger.Warn("join failed", "server", c.cfg.Target, "err", err)
	}
}

// Err returns why the join failed, nil while it has not.
func (c *Connecting) Err() error { return c.err }

// Failure returns what the screen says of the failure (zero while none).
func (c *Connecting) Failure() client.Failure { return c.failure }

// Next returns the match once its first snapshot came, or the scene a
// player who went back goes to, for App.
func (c *Connecting) Next() Scene { return c.next }

// Live reports whether the screen shows what a timed run waits for: a
// failure. App counts ExitAfter for the match from the match's own first
// frame with the world, not from the connecting screen.
func (c *Connecting) Live() bool { return c.err != nil }

// prelude marks the screen as one shown before the scene a run is timed
// by (see App).
func (c *Connecting) prelude() {}

// Update reads the keys and buttons, takes in the join's result and, once
// joined, runs the match until its first snapshot.
func (c *Connecting) Update() error {
	in := c.input.Read(c.err != nil)
	if c.err != nil {
		switch {
		case in.Retry:
			c.start()
		case in.Back:
			return c.leave()
		}
		return nil
	}
	if in.Back {
		c.abandon()
		c.fail(context.Canceled)
		return c.leave()
	}
	if c.game == nil {
		select {
		case r := <-c.at.done:
			if r.err != nil {
				c.fail(r.err)
				return nil
			}
			c.game, c.open = r.game, time.Now()
		default:
			return nil
		}
	}
	return c.awaitSnapshot()
}

// awaitSnapshot runs the joined match until its client decoded a
// snapshot, then hands it the window; the connection ending first, or the
// snapshot not coming in time, is the attempt's failure.
func (c *Connecting) awaitSnapshot() error {
	if err := c.game.Update(); err != nil {
		return err
	}
	cl := c.game.Client()
	if cl.Stats().Decoded > 0 {
		c.at.reach(client.Stage{Name: client.StageFirstSnapshot, At: time.Since(c.at.start)})
		c.game.setConnectStages(drawnStages(c.at.snapshot()))
		c.at.cancel() // the join is over; the connection outlives its context
		c.next = c.game
		return nil
	}
	select {
	case <-cl.Done():
		err := fmt.Errorf("desktop: %w: the connection ended", client.ErrNoSnapshot)
		c.game.Close()
		c.game = nil
		c.fail(err)
		return nil
	default:
	}
	if time.Since(c.open) > c.cfg.SnapshotTimeout {
		c.game.Close()
		c.game = nil
		c.fail(fmt.Errorf("desktop: %w in %v", client.ErrNoSnapshot, c.cfg.SnapshotTimeout))
	}
	return nil
}

// leave goes back, or ends the run when there is nowhere to go.
func (c *Connecting) leave() error {
	if c.cfg.Back == nil {
		return ebiten.Termination
	}
	c.next = c.cfg.Back()
	return nil
}

// ConnectingInput reads what the connecting screen takes: Enter or R
// retries a failed join, Esc cancels or goes back, and a click on either
// button does the same.
type ConnectingInput struct{}

// ConnectingIntent is what the player asked of the connecting screen in
// one Update.
type ConnectingIntent struct {
	Retry bool // only once failed
	Back  bool
}

// Read samples the keys and the mouse; failed says whether the screen
// shows a failure (and so its Retry button).
func (ConnectingInput) Read(failed bool) ConnectingIntent {
	var it ConnectingIntent
	it.Back = inpututil.IsKeyJustPressed(ebiten.KeyEscape)
	if failed {
		it.Retry = inpututil.IsKeyJustPressed(ebiten.KeyEnter) || inpututil.IsKeyJustPressed(ebiten.KeyNumpadEnter) || inpututil.IsKeyJustPressed(ebiten.KeyR)
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := ebiten.CursorPosition()
		retry, back := connectButtons(failed)
		switch {
		case failed && retry.Contains(float64(x), float64(y)):
			it.Retry = true
		case back.Contains(float64(x), float64(y)):
			it.Back = true
		}
	}
	return it
}

// The connecting panel's layout, in logical pixels.
const (
	connW, connH = 760.0, 470.0
	connX, connY = (ScreenWidth - connW) / 2, (ScreenHeight - connH) / 2
	connRowH     = 30.0
	connButtonW  = 170.0
	connButtonH  = 38.0
)

// connectButtons are the Retry and Back (or Cancel) buttons' places.
func connectButtons(failed bool) (retry, back settingsui.Rect) {
	y := connY + connH - connButtonH - 18
	if !failed {
		return settingsui.Rect{}, settingsui.Rect{X: connX + (connW-connButtonW)/2, Y: y, W: connButtonW, H: connButtonH}
	}
	retry = settingsui.Rect{X: connX + connW/2 - connButtonW - 10, Y: y, W: connButtonW, H: connButtonH}
	back = settingsui.Rect{X: connX + connW/2 + 10, Y: y, W: connButtonW, H: connButtonH}
	return retry, back
}

// Draw draws the stages and, once failed, the failure and its buttons.
func (c *Connecting) Draw(dst *ebiten.Image) {
	now := time.Now()
	f := c.fonts
	drawFloor(dst)
	panel(dst, connX, connY, connW, connH)
	title := "Joining " + c.cfg.Target
	if c.err != nil {
		title = "Could not join " + c.cfg.Target
	}
	drawText(dst, clip(title, f.big, connW-40), f.big, connX+connW/2, connY+18, text.AlignCenter, colText)

	stages := c.at.snapshot()
	reached := map[string]client.Stage{}
	for _, s := range stages {
		reached[s.Name] = s
	}
	y := connY + 66
	pending := true // the first stage not reached is the one in progress
	for _, name := range client.Stages() {
		s, ok := reached[name]
		mark, col, label, when := "·", colTextDim, client.StageLabel(name, ""), ""
		switch {
		case ok:
			mark, col, label, when = "•", colGood, client.StageLabel(name, s.Detail), fmt.Sprintf("%d ms", s.At.Milliseconds())
		case pending && c.err != nil:
			mark, col, pending = "×", colBad, false
		case pending:
			mark, col, pending = "…", colAccent, false
			when = fmt.Sprintf("%.1f s", now.Sub(c.at.start).Seconds())
		}
		drawText(dst, mark, f.normal, connX+40, y, text.AlignCenter, col)
		lc := colText
		if !ok {
			lc = col
		}
		drawText(dst, label, f.normal, connX+62, y, text.AlignStart, lc)
		drawText(dst, when, f.normal, connX+connW-40, y, text.AlignEnd, colTextDim)
		y += connRowH
	}
	y += 10
	retry, back := connectButtons(c.err != nil)
	if c.err != nil {
		for _, line := range text.Wrap(c.failure.Cause, f.normal.metrics, connW-60) {
			drawText(dst, line, f.normal, connX+30, y, text.AlignStart, colBad)
			y += 22
		}
		for _, line := range text.Wrap(c.failure.Try, f.normal.metrics, connW-60) {
			drawText(dst, line, f.normal, connX+30, y, text.AlignStart, colText)
			y += 22
		}
		drawButton(dst, f, retry, "Retry  Enter", colAccent)
		label := "Back  Esc"
		if c.cfg.Back == nil {
			label = "Quit  Esc"
		}
		drawButton(dst, f, back, label, colText)
	} else {
		drawButton(dst, f, back, "Cancel  Esc", colText)
	}
	c.record(stages)
}

// record keeps what the frame showed, for LastDrawn.
func (c *Connecting) record(stages []client.Stage) {
	c.drawn.ConnectStages = drawnStages(stages)
	c.drawn.ConnectStage = ""
	if len(stages) > 0 {
		c.drawn.ConnectStage = stages[len(stages)-1].Name
	}
	c.drawn.ConnectError = ""
	if c.err != nil {
		c.drawn.ConnectError = c.failure.String()
	}
}

// LastDrawn returns what the last frame showed: the stages and the
// failure.
func (c *Connecting) LastDrawn() *Drawn { return &c.drawn }

// drawnStages turns the stages reached into Drawn's.
func drawnStages(stages []client.Stage) []DrawnStage {
	out := make([]DrawnStage, len(stages))
	for i, s := range stages {
		out[i] = DrawnStage{Stage: s.Name, Detail: s.Detail, Ms: float64(s.At.Microseconds()) / 1000}
	}
	return out
}

// drawButton draws a button with its label centred.
func drawButton(dst *ebiten.Image, f *fonts, r settingsui.Rect, label string, c color.RGBA) {
	panel(dst, r.X, r.Y, r.W, r.H)
	outline(dst, r, c)
	drawText(dst, label, f.normal, r.X+r.W/2, r.Y+10, text.AlignCenter, c)
}
