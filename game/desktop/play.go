package desktop

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop/audio"
	"github.com/sightline-game/sightline/game/desktop/settingsui"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/conditioner"
)

// PlayConfig is how the local player plays a match, however it was
// reached: a server joined by address (Join), from the LAN menu, in the
// browser, or a match hosted in this process (Play on its connection).
// Zero fields take the defaults noted.
type PlayConfig struct {
	// Prefs are the player's settings (the name among them), shared with
	// the menu; nil keeps them for this game only, with Name.
	Prefs *settingsui.Prefs
	// Name is the player's name when Prefs is nil.
	Name string
	// Token is the player's join token, for Join (cmd/server -token-key).
	Token string
	// RelayOnly has Join send everything through the TURN relay the
	// server hands out (for testing the relay).
	RelayOnly bool
	// OnStage, if set, hears each stage of Join's connection as it is
	// reached (client.ConnectConfig.OnStage), for the connecting screen.
	OnStage func(client.Stage)
	// ICETimeout, if above 0, bounds Join's wait for a working network
	// path once the server answered (client.ConnectConfig.ICETimeout).
	ICETimeout time.Duration
	// Watch joins to watch the match, not to play it (a spectator: see
	// client.Config.Watch): the game follows a player or flies a free
	// camera (spectate.go).
	Watch bool
	// Follow, with Watch, is the player to follow from the start (0: the
	// leader, as the server chooses).
	Follow uint32
	// Status is a line about the match shown in the corner.
	Status string
	// JoinHint, if set, says how others join a match hosted here (see
	// Config.JoinHint).
	JoinHint func() string
	// JoinLink, if set, is the link others join this match by, for the
	// pause menu's "Copy join link" (see Config.JoinLink).
	JoinLink func() string
	// HowToPlay shows the "how to play" card at the start whatever the
	// settings say (see Config.HowToPlay).
	HowToPlay bool
	// ShowOverlay starts with the network overlay shown.
	ShowOverlay bool
	// Conditions are the loss, latency and jitter the player's own link
	// starts with (the overlay's keys change them; zero: none added).
	Conditions conditioner.Conditions
	// Clock is the conditioner's clock (default: time since Play).
	Clock func() time.Duration
	// Seed seeds the conditioner's losses.
	Seed uint64
	// Autopilot, if set, plays instead of the keyboard and mouse.
	Autopilot func() arena.Input
	// Leave, if set, is offered in the pause menu: the game's client is
	// closed, then Leave returns the scene to show instead.
	Leave func() Scene
	// Logger receives the client's and the game's trouble (default: discard).
	Logger *slog.Logger
	// Sound plays the match's sound effects (nil: silent).
	Sound *audio.Sound
	// Now is the game's clock (Config.Now; default time.Now).
	Now func() time.Time
	// Art is the images and faces, loaded ahead (LoadArt; nil: Play
	// loads them).
	Art *Art
}

// Join connects to the match server at baseURL (its match called match,
// if not empty; with the join token in cfg, if any) and returns the game
// that plays it (see Play). The desktop's -join, its LAN menu and the
// browser build all join this way.
func Join(ctx context.Context, baseURL, match string, cfg PlayConfig) (*Game, error) {
	conn, err := client.Connect(ctx, baseURL, client.ConnectConfig{
		Match: match, Token: cfg.Token, Logger: cfg.Logger, RelayOnly: cfg.RelayOnly,
		OnStage: cfg.OnStage, ICETimeout: cfg.ICETimeout, Watch: cfg.Watch,
	})
	if err != nil {
		return nil, err
	}
	return Play(conn, cfg)
}

// Play returns the game that plays the match on conn: the link
// conditioner around conn (so that the overlay can make the link worse on
// purpose), a client that verifies every tick, and the Game. The Game owns
// them: Close (or Leave) closes the client and conn.
func Play(conn transport.Conn, cfg PlayConfig) (*Game, error) {
	clock := cfg.Clock
	if clock == nil {
		start := time.Now()
		clock = func() time.Duration { return time.Since(start) }
	}
	cond := conditioner.New(conn, clock, cfg.Seed^0x636f6e64)
	cond.Set(cfg.Conditions)
	name := cfg.Name
	if cfg.Prefs != nil {
		name = cfg.Prefs.Name()
	}
	cl := client.New(cond, client.Config{Verify: true, Name: name, Logger: cfg.Logger, Watch: cfg.Watch})
	var g *Game
	gc := Config{
		Client: cl, Conditioner: cond, Name: name, TickRate: protocol.DefaultTickRate,
		Status: cfg.Status, JoinHint: cfg.JoinHint, JoinLink: cfg.JoinLink, HowToPlay: cfg.HowToPlay, ShowOverlay: cfg.ShowOverlay, Prefs: cfg.Prefs,
		Autopilot: cfg.Autopilot, Logger: cfg.Logger, Sound: cfg.Sound, Watch: cfg.Watch, Now: cfg.Now,
		Follow: cfg.Follow, Art: cfg.Art,
	}
	if cfg.Leave != nil {
		gc.Leave = func() Scene {
			g.Close()
			return cfg.Leave()
		}
	}
	g, err := New(gc)
	if err != nil {
		cl.Close()
		return nil, err
	}
	g.closeClient = sync.OnceFunc(func() { cl.Close() })
	return g, nil
}

// Client is the game's client: its counters, and its end (Done).
func (g *Game) Client() *client.Client { return g.cl }

// Conditioner is the conditioner around the game's connection (nil for a
// Game made by New without one).
func (g *Game) Conditioner() *conditioner.Conn { return g.cfg.Conditioner }

// Close closes the client and connection of a game made by Play or Join;
// a Game made by New closes nothing. It may be called more than once.
func (g *Game) Close() {
	if g.closeClient != nil {
		g.closeClient()
	}
}
