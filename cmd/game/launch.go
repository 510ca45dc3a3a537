package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop"
	"github.com/sightline-game/sightline/game/desktop/audio"
	"github.com/sightline-game/sightline/game/desktop/settingsui"
	"github.com/sightline-game/sightline/game/replays"
	"github.com/sightline-game/sightline/netcode/lan"
	"github.com/sightline-game/sightline/netcode/transport/conditioner"
)

// joinTimeout bounds connecting to a match server.
const joinTimeout = 15 * time.Second

// playConfig is how the local player plays, whichever match.
type playConfig struct {
	autopilot, overlay bool          // overlay: -overlay, shown whatever the settings
	howToPlay          bool          // -how-to-play: the card at the start whatever the settings
	relayOnly          bool          // -relay-only: joins go through the server's TURN relay
	iceTimeout         time.Duration // -ice-timeout: a join's wait for a working path after the answer
	follow             uint32        // -follow: the player a spectator follows from the start
	loss, burst        float64
	latency, jitter    time.Duration
}

// launcher starts what the player asks for, from the flags or the menu:
// joining a match server, or hosting one in this process, each ending in a
// desktop.Game to play it.
type launcher struct {
	log   *slog.Logger
	clock func() time.Duration
	seed  uint64
	host  hostConfig
	play  playConfig
	sound *audio.Sound // the process's one audio output (silent without a device)
	// prefs are the player's settings (the name among them), shared by the
	// menu and every match.
	prefs *settingsui.Prefs
	// leave returns the scene a player who leaves a match goes to (the
	// LAN menu); nil offers no Leave.
	leave func() desktop.Scene

	mu      sync.Mutex
	closers []func()
}

// close closes the clients of the matches played.
func (l *launcher) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.closers {
		c()
	}
	l.closers = nil
}

// connecting returns the connecting screen of a join of the match server
// at url (its match called match, if not empty, with the join token, if
// any): it connects in the background, shows each stage, and hands the
// window to the match once its first snapshot came. back is where Esc
// goes (nil: it quits).
// With watch it joins to watch the match (a spectator).
func (l *launcher) connecting(ctx context.Context, url, match, token string, watch bool, back func() desktop.Scene) *desktop.Connecting {
	url = strings.TrimSuffix(url, "/")
	target := url
	if match != "" {
		target += ", match " + match
	}
	return desktop.NewConnecting(desktop.ConnectingConfig{
		Context: ctx, Target: target, Back: back, Logger: l.log,
		Join: func(jctx context.Context, onStage func(client.Stage)) (*desktop.Game, error) {
			jctx, cancel := context.WithTimeout(jctx, joinTimeout)
			defer cancel()
			status := "playing on " + url
			if watch {
				status = "watching " + url
			}
			cfg := l.playConfig(status, nil)
			cfg.Token, cfg.OnStage, cfg.ICETimeout, cfg.Watch = token, onStage, l.play.iceTimeout, watch
			return l.track(desktop.Join(jctx, url, match, cfg))
		},
	})
}

// hostAndPlay starts a match server in this process (announced on the LAN
// as the flags say) and returns the game that plays it. The match runs
// until the process's context ends.
func (l *launcher) hostAndPlay(ctx context.Context) (*desktop.Game, error) {
	cfg := l.host
	if cfg.name == "" {
		cfg.name = l.prefs.Name() + "'s match"
	}
	mctx, stop := context.WithCancel(ctx) // leaving the match ends it
	m, err := host(mctx, l.log, cfg)
	if err != nil {
		stop()
		return nil, err
	}
	go func() {
		if err := <-m.errc; err != nil && mctx.Err() == nil {
			l.log.Error("match server stopped", "err", err)
		}
	}()
	pc := l.playConfig(m.status, stop)
	pc.JoinHint = m.joinHint
	pc.JoinLink = m.joinLink
	g, err := l.track(desktop.Play(m.join(l.clock), pc))
	if err != nil {
		stop()
		return nil, err
	}
	l.mu.Lock()
	l.closers = append(l.closers, stop)
	l.mu.Unlock()
	return g, nil
}

// playConfig is how the player plays every match (under the name in the
// settings when it starts). stop, if set, ends the match hosted here when
// the player leaves it.
func (l *launcher) playConfig(status string, stop func()) desktop.PlayConfig {
	cfg := desktop.PlayConfig{
		Prefs: l.prefs, Status: status, ShowOverlay: l.play.overlay, HowToPlay: l.play.howToPlay,
		Conditions: conditioner.Conditions{Loss: l.play.loss, BurstLen: l.play.burst, Latency: l.play.latency, Jitter: l.play.jitter},
		Clock:      l.clock, Seed: l.seed, Logger: l.log, Sound: l.sound, RelayOnly: l.play.relayOnly,
		Follow: l.play.follow,
	}
	if l.leave != nil {
		cfg.Leave = func() desktop.Scene {
			if stop != nil {
				stop()
			}
			return l.leave()
		}
	}
	if l.play.autopilot {
		cfg.Autopilot = brain.NewWanderer(l.seed ^ 0x6175746f).Next
	}
	return cfg
}

// track keeps a game made for closing when the process ends.
func (l *launcher) track(g *desktop.Game, err error) (*desktop.Game, error) {
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.closers = append(l.closers, g.Close)
	l.mu.Unlock()
	return g, nil
}

// menu returns the start menu, listening for the matches announced on the
// LAN on port until the player has chosen one (or ctx ends).
func (l *launcher) menu(ctx context.Context, port int) *desktop.Menu {
	bctx, stopBrowsing := context.WithCancel(ctx)
	cfg := desktop.MenuConfig{Context: ctx, Prefs: l.prefs, Logger: l.log, Sound: l.sound}
	if br, err := lan.Listen(bctx, port); err != nil {
		l.log.Warn("not listening for LAN matches", "err", err)
		cfg.Listening = "not listening for LAN matches: " + err.Error()
		stopBrowsing()
	} else {
		cfg.Matches = br.Matches
		cfg.Listening = fmt.Sprintf("listening for LAN matches on UDP port %d", port)
	}
	cfg.Join = func(_ context.Context, url, match string) (desktop.Scene, error) {
		// The connecting screen takes the window at once; Esc there comes
		// back to a new menu.
		stopBrowsing()
		return l.connecting(ctx, url, match, "", false, l.leave), nil
	}
	cfg.Watch = func(_ context.Context, url, match string) (desktop.Scene, error) {
		stopBrowsing()
		return l.connecting(ctx, url, match, "", true, l.leave), nil
	}
	if dir := l.host.replays; dir != "" {
		cfg.Replays = func() []replays.Replay {
			list, err := replays.List(dir)
			if err != nil {
				l.log.Warn("no replays listed", "err", err)
			}
			return list
		}
		cfg.Replay = func(_ context.Context, path string) (desktop.Scene, error) {
			v, err := l.castView(options{Replay: path, ReplaySpeed: 1})
			if err != nil {
				return nil, err
			}
			stopBrowsing()
			return v, nil
		}
	}
	cfg.Host = func(context.Context) (desktop.Scene, error) {
		// The match outlives the menu: it runs on the process's context.
		g, err := l.hostAndPlay(ctx)
		if err != nil {
			return nil, err
		}
		stopBrowsing()
		return g, nil
	}
	return desktop.NewMenu(cfg)
}

// announce broadcasts the hosted match's beacon on the LAN until ctx ends,
// with the invite link once the rendezvous has given one (-invite).
func announce(ctx context.Context, log *slog.Logger, m *match, cfg hostConfig, port int) {
	maxPlayers := cfg.maxClients + cfg.bots + 1
	err := lan.Announce(ctx, lan.AnnounceConfig{
		Port: cfg.lanPort,
		Beacon: func() lan.Beacon {
			return lan.Beacon{
				Name:       cfg.name,
				Players:    min(m.srv.Stats().Clients, maxPlayers),
				MaxPlayers: maxPlayers,
				HTTPPort:   uint16(port),
				Invite:     m.inviteLink(),
			}
		},
		Logger: log,
	})
	if err != nil {
		log.Warn("not announcing the match on the LAN", "err", err)
	}
}
