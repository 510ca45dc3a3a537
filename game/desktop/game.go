package desktop

import (
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop/audio"
	"github.com/sightline-game/sightline/game/desktop/camera"
	"github.com/sightline-game/sightline/game/desktop/controls"
	"github.com/sightline-game/sightline/game/desktop/howto"
	"github.com/sightline-game/sightline/game/desktop/settingsui"
	"github.com/sightline-game/sightline/game/desktop/touch"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/smooth"
	"github.com/sightline-game/sightline/netcode/transport/conditioner"
)

// The logical screen of a landscape window (the desktop's): Ebitengine
// scales it to the window, keeping its aspect ratio. A portrait window or
// page gets the same turned upright (touch.Screen).
const (
	ScreenWidth  = 1280
	ScreenHeight = 720
)

// UpdateRate is how often Update runs (ebiten.SetTPS).
const UpdateRate = 60

// Config sets up a Game. Client is required.
type Config struct {
	// Client is the connection to the match; the game polls it and sends
	// through it from Update, and closes nothing.
	Client *client.Client
	// Conditioner, if set, is the Client's connection wrapper whose loss,
	// latency and jitter the overlay's keys change.
	Conditioner *conditioner.Conn
	// Name is the player's name, for the HUD.
	Name string
	// Art is the images and faces, loaded ahead (nil: New loads them).
	Art *Art
	// TickRate is the server's tick rate in Hz (default protocol.DefaultTickRate):
	// one input is sent per server tick.
	TickRate float64
	// MaxFPS, Screenshot and ExitAfter are the window loop's Options when
	// the game runs with Run (an App has its own).
	MaxFPS     int
	Screenshot string
	ExitAfter  time.Duration
	// Autopilot, if set, gives the player's input each tick instead of the
	// keyboard and mouse (a demo, and the window test).
	Autopilot func() arena.Input
	// Status is a line about the match shown in the corner, like
	// "hosting on :8080".
	Status string
	// JoinHint, if set, says how others join the match this player hosts
	// (the invite link, else the LAN address): the HUD's status line
	// shows it in place of Status once it says something, and the pause
	// menu shows it in full. It is asked each frame, so a link that comes
	// later (the rendezvous's) shows when it comes.
	JoinHint func() string
	// JoinLink, if set, is the link others join this match by (the invite
	// link, the LAN address, the page's address): the pause menu then
	// offers "Copy join link", which puts it on the clipboard. Asked when
	// the player copies.
	JoinLink func() string
	// HowToPlay shows the "how to play" card at the match's start even
	// when the player has dismissed it before (the -how-to-play flag).
	// Without it the card shows until the player first dismisses it; with
	// an Autopilot (a bot plays), only with it.
	HowToPlay bool
	// ShowOverlay starts with the network overlay shown (as does the
	// Overlay setting).
	ShowOverlay bool
	// Prefs are the player's settings, shared with the menu (NewPrefs);
	// nil keeps them for this game only, with Volume and Name.
	Prefs *settingsui.Prefs
	// Volume, if not nil and Prefs is nil, gets the volumes and mute.
	Volume VolumeSetter
	// Leave, if set, is offered in the pause menu (Esc): it ends the
	// player's part in the match and returns the scene to show instead
	// (the start menu).
	Leave func() Scene
	// Quit, when closed, ends the game run with Run (say, on Ctrl-C).
	Quit <-chan struct{}
	// Logger receives the game's trouble (default: discard).
	Logger *slog.Logger
	// Sound plays the match's sound effects (nil: silent).
	Sound *audio.Sound
	// Now, if set, is the game's clock in place of time.Now wherever time
	// moves the match on screen (interpolation, the input clock, the
	// feeds' fading): a replay's virtual clock (client.Cast.Now), which
	// runs fast, slow or stands still.
	Now func() time.Time
	// Watch says the Client joined to watch (client.Config.Watch): no
	// "how to play" card, and the spectator's camera and keys
	// (spectate.go) once the server welcomes it as a spectator.
	Watch bool
	// Follow, with Watch, is the player to follow from the start (0: the
	// leader, as the server chooses).
	Follow uint32
}

// Game is the Ebitengine game: the match as one player sees it.
type Game struct {
	cfg     Config
	cl      *client.Client
	log     *slog.Logger
	fonts   *fonts
	sprites *sprites
	input   Input
	cam     camera.Camera

	// closeClient closes cl, for a Game made by Play (nil: New's caller
	// owns the client).
	closeClient func()

	net     netState
	hud     hudState
	records recordState
	snd     soundState

	// The match's map and what is drawn of it, once the server said which.
	m       *arena.Map
	mapDraw *mapLayer
	mini    *minimap
	pred    *smooth.Predictor
	interp  *smooth.Interpolator
	fired   *smooth.Shots // the own projectiles, predicted (ownshots.go)
	own     ownShots

	// Animation: what was drawn last frame, the effects playing.
	anims    animState
	spriteOp ebiten.DrawImageOptions

	// Per-frame scratch, reused.
	ents  []drawnEntity
	drawn Drawn // what the last frame drew where
	shots []drawnEntity

	// The player's own entity as last drawn, in world and screen px.
	self drawnSelf

	// The logical screen's size (Layout) and the touch controls on it.
	sw, sh float64
	touch  touchState

	// howto is the "how to play" card (nil: never shown, a bot plays).
	howto *howto.Card

	// UI modes.
	typing, overlay, scoreboard bool
	prefs                       *settingsui.Prefs
	pause                       pauseState // Esc: the pause menu and the settings screen
	next                        Scene      // after Leave

	// worldDrawn: a frame has drawn the server's world (Live).
	worldDrawn bool

	// watch is a spectator's camera (spectate.go).
	watch watchState

	// kc is the killcam (killcamview.go).
	kc killcamState

	// When Update last ran (unix ns), for KeepAlive.
	lastUpdate atomic.Int64
}

// New returns a game playing the match cfg.Client is connected to.
func New(cfg Config) (*Game, error) {
	if cfg.Client == nil {
		return nil, errors.New("desktop: Config.Client is nil")
	}
	if cfg.TickRate <= 0 {
		cfg.TickRate = protocol.DefaultTickRate
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	art := cfg.Art
	if art == nil {
		var err error
		if art, err = LoadArt(nil); err != nil {
			return nil, err
		}
	}
	g := &Game{
		cfg:     cfg,
		cl:      cfg.Client,
		log:     cfg.Logger,
		fonts:   art.fonts,
		sprites: art.sprites,
		cam:     camera.Camera{W: ScreenWidth, H: ScreenHeight},
		interp:  smooth.NewInterpolator(cfg.TickRate),
		prefs:   cfg.Prefs,
	}
	if g.prefs == nil {
		g.prefs = NewPrefs(PrefsConfig{Volume: cfg.Volume, Name: cfg.Name})
	}
	g.setScreen(ScreenWidth, ScreenHeight)
	g.overlay = cfg.ShowOverlay || g.prefs.Settings().Overlay
	if (cfg.Autopilot == nil && !cfg.Watch) || cfg.HowToPlay {
		g.howto = howto.Open(g.prefs, cfg.HowToPlay)
	}
	g.cam.Follow(arena.WorldSize/2, arena.WorldSize/2)
	g.net.init(cfg.TickRate)
	g.hud.init()
	g.initSound(cfg.Sound)
	g.anims.init()
	g.kc.init(cfg.TickRate)
	g.cl.OnEvent(g.event)
	return g, nil
}

// Update runs UpdateRate times a second: input, network, UI.
func (g *Game) Update() error {
	g.lastUpdate.Store(time.Now().UnixNano())
	now := g.cfg.Now()
	g.net.update(g, now)
	g.noticeRejected(now)
	g.records.read(g)
	g.soundRecords(now)
	g.ensureMap()

	st := g.input.Read(g.self.sx, g.self.sy, g.typing, g.overlay)
	g.readTouch(&st, now)
	if g.worldDrawn && !g.pause.open() {
		// Any press dismisses the card, and does what it does as well.
		g.howto.Update(now, st.AnyPress || g.touch.out.Menu)
	}
	paused := g.updatePause(st.Pressed&controls.KeyEscape != 0 || g.touch.out.Menu, now)
	if paused {
		// The pause menu has the keys: stand still, aim where the cursor is.
		st = controls.State{Typing: true, MouseX: st.MouseX, MouseY: st.MouseY, PlayerX: st.PlayerX, PlayerY: st.PlayerY}
	}
	if g.pause.quit {
		return ebiten.Termination
	}
	g.updateKillcam(&st)
	it := controls.Map(st, g.conditions())
	g.act(it, now)
	if g.spectating() {
		g.updateWatch(now, it.Input.MoveX, it.Input.MoveY, !paused && !g.typing)
		g.soundFrame(now)
		return nil
	}
	in := it.Input
	if g.cfg.Autopilot != nil {
		in = g.cfg.Autopilot()
	}
	g.net.send(g, now, in)
	g.soundFrame(now)
	return nil
}

// Live reports whether a frame has drawn the server's world: the match is
// on screen from then (App counts a timed run from it).
func (g *Game) Live() bool { return g.worldDrawn }

// Next returns the scene to show after the player left the match (nil
// while playing), for App.
func (g *Game) Next() Scene { return g.next }

// KeepAlive keeps the connection acknowledged while Update does not run (a
// browser runs a hidden tab's frames seldom or never): when the game has
// been still for a second it polls and acknowledges, so the server neither
// times the player out nor loses the baseline for longer than needed. When
// the frames return, the game resynchronises from what arrives. Call it from
// a timer.
func (g *Game) KeepAlive() {
	if time.Since(time.Unix(0, g.lastUpdate.Load())) < time.Second {
		return
	}
	g.cl.Poll()
	g.cl.SendAck()
}

// act carries out the frame's client-side actions.
func (g *Game) act(it controls.Intent, now time.Time) {
	g.scoreboard = it.Scoreboard
	switch {
	case it.Has(controls.ActionOpenChat):
		g.typing = true
		g.input.ClearTyped()
	case it.Has(controls.ActionSendChat):
		if line := g.input.Typed(); line != "" {
			if err := g.cl.SendChat(line); err != nil {
				g.hud.notice(now, "chat not sent: "+err.Error())
			}
		}
		g.typing = false
		g.input.ClearTyped()
	case it.Has(controls.ActionCancelChat):
		g.typing = false
		g.input.ClearTyped()
	}
	if it.Has(controls.ActionToggleOverlay) {
		g.overlay = !g.overlay
	}
	if it.Has(controls.ActionConditions) && g.cfg.Conditioner != nil {
		c := it.Conditions
		g.cfg.Conditioner.Set(conditioner.Conditions{Loss: c.Loss, BurstLen: c.Burst, Latency: c.Latency, Jitter: c.Jitter})
		g.hud.notice(now, fmt.Sprintf("link: +%d%% loss%s, +%d ms latency, +%d ms jitter",
			int(c.Loss*100+0.5), burstText(c.Burst), c.Latency.Milliseconds(), c.Jitter.Milliseconds()))
	}
}

// conditions returns the conditioner's settings in the controls' terms.
func (g *Game) conditions() controls.Conditions {
	if g.cfg.Conditioner == nil {
		return controls.Conditions{}
	}
	c := g.cfg.Conditioner.Conditions()
	return controls.Conditions{Loss: c.Loss, Burst: c.BurstLen, Latency: c.Latency, Jitter: c.Jitter}
}

// burstText says how losses come: " in runs of N", or nothing when each
// message is lost on its own.
func burstText(burst float64) string {
	if burst <= 1 {
		return ""
	}
	return fmt.Sprintf(" in runs of %.0f", burst)
}

// ensureMap builds the map, its drawing and the predictor once the server
// has said which map the match plays on.
func (g *Game) ensureMap() {
	if g.m != nil {
		return
	}
	if _, ok := g.cl.Self(); !ok {
		return
	}
	g.m = arena.NewMap(g.cl.MapSeed())
	g.mapDraw = newMapLayer(g.m, g.sprites)
	g.mini = newMinimap(g.m)
	g.pred = smooth.NewPredictor(g.m)
	g.fired = smooth.NewShots(g.m)
}

// Draw draws one frame.
func (g *Game) Draw(screen *ebiten.Image) {
	g.drawFrame(screen, g.cfg.Now())
}

// drawFrame draws the game onto dst.
func (g *Game) drawFrame(dst *ebiten.Image, now time.Time) {
	dst.Fill(colFloor)
	g.drawn.reset()
	g.placeSelf(now)
	if g.drawKillcam(dst, now) {
		if g.overlay {
			g.drawOverlay(dst, now)
		}
		g.drawPause(dst, now)
		return
	}
	if g.mapDraw != nil {
		g.drawn.MapSeed, g.drawn.MapOrigin = g.cl.MapSeed(), mapOrigin(&g.cam)
		g.drawn.Draws += g.mapDraw.draw(dst, &g.cam)
		g.worldDrawn = true
	}
	drawVoid(dst, &g.cam)
	g.drawWorld(dst, now)
	g.recordOwnShots()
	g.drawDamageFlash(dst, now)
	if g.mini != nil {
		g.mini.draw(dst, g, now)
	}
	g.drawHUD(dst, now)
	g.drawTouch(dst)
	if g.overlay {
		g.drawOverlay(dst, now)
	}
	g.drawHowTo(dst)
	g.drawPause(dst, now)
}

// Layout picks the logical screen for the window's orientation
// (touch.Screen): 1280x720 in landscape, as the desktop window always is,
// 720x1280 in portrait. The window scales it, keeping its aspect ratio.
func (g *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	w, h := touch.Screen(outsideWidth, outsideHeight)
	g.setScreen(w, h)
	return w, h
}

// setScreen sizes the camera, the HUD and the touch controls for a w x h
// logical screen.
func (g *Game) setScreen(w, h int) {
	if g.sw == float64(w) && g.sh == float64(h) {
		return
	}
	g.sw, g.sh = float64(w), float64(h)
	g.cam.W, g.cam.H = g.sw, g.sh
	g.touch.layout = touch.NewLayout(g.sw, g.sh)
}
