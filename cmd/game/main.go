// Command game is the desktop client: it plays a match in a window.
//
//	game                         host a local match with 8 bots and play it
//	game -host -addr :8080       host a LAN match others can join, and play it
//	game -host -udp-port 8443    the same, the players' data on UDP port 8443 (the default)
//	game -join http://HOST:8080  join a match server (cmd/server or another game's -host)
//	game -join URL -match 2      join match 2 of a server hosting several (cmd/server -matches N)
//	game -join URL -token T      join a server that admits only invited players (cmd/server -token-key)
//	game -watch URL              watch a match without playing (a spectator: follow a player or fly free)
//	game -browse                 start at a menu of the matches on the LAN
//	game -replay FILE            play a replay (cmd/server -record) as a spectator
//	game -broadcast URL          watch a live broadcast (http://HOST:8080/broadcast/1/)
//
// A replay or a broadcast plays through the game's own client, as a
// spectator's match: client.Cast turns its frames into the datagrams a
// server would send, and every tick is verified against the broadcast's
// hash. P pauses, Left and Right seek 5 s back and on (a new Cast from the
// keyframe before, swapped in), [ and ] (or - and =) halve and double the
// speed within 0.25x-4x; the HUD says "replay 1:23 / 2:00  2x  paused".
// -replay-speed and -replay-at start it at a speed and a point. When the
// game ends on one, it says on stdout what it played ("replay: played N
// ticks ..., M mismatched").
//
// A hosted match takes players on -addr (TCP, HTTP: joining and the browser
// build) and -udp-port (UDP 8443 unless set: their data channels; when
// another program holds it, as a second host on the same machine does, a
// free port instead, with a warning naming it). The HUD and the pause menu
// say how others join: the invite link with -invite, else the LAN address.
// It is announced on the LAN (UDP broadcast beacons
// on -lan-port, 47800 unless set; -announce=false keeps it quiet, -match-name names it), and
// the menu of -browse lists the matches it hears with their players and
// ping: choose one to join it, type an address, or host a match there.
//
// Joining (-join, or a match chosen on the menu) opens the window at once on
// a connecting screen: each stage of the connection as it is reached, with
// its time (ICE servers fetched, offer sent, answer received, ICE checks
// with the path tried, data channels open, first snapshot), and Esc to
// cancel (back to the menu; with -join, quit). A join that fails says its
// likely cause and what to try, with Retry (Enter); -ice-timeout gives up
// sooner when no network path works after the server answered.
//
// A player's first match opens on a "how to play" card, which any key,
// click or touch puts away for good (remembered in the settings); Esc >
// How to play, or -how-to-play, shows it again.
//
// In the game: WASD or arrows move, the mouse aims, left button or space
// fires, Enter chats, Tab shows the scoreboard, F3 the network overlay (with
// 1/2, 3/4, 5/6 adding loss, latency and jitter to the link, 7/8 making
// losses come in runs, 0 clearing), M mutes, Esc pauses (Resume, Settings,
// How to play, Copy join link when hosting, Leave match for the LAN menu,
// Quit game). F2 on the menu opens the
// settings, kept in the user's config folder (game/settings); -name names
// the player for this run only.
//
// -loss 0.1 -latency 50ms -jitter 20ms start with that link conditioner set
// (the overlay shows and changes it). For tests and screenshots: -screenshot
// out.png -exit-after 6s saves the frame drawn 6 s into the match (counted
// from its first frame with the server's world; at the menu, from its first
// frame) and exits; -fps caps the frame rate (under Xvfb there is no vsync);
// -exit-when ends the run sooner, as soon as what a test waits for happened
// (confirmed=N: the server's copies of N of the player's predicted shots
// were seen; listed=N: the menu lists N matches with their ping; sounds=N:
// N sound effects were asked for; paused=1: the pause menu is on screen;
// copied=1: the pause menu says what became of "Copy join link"; stages=N:
// the connecting screen shows N stages reached; failed=1: it shows why the
// join failed; followed=1: a spectator drew the player it follows;
// replayed=N: a replay or broadcast delivered N ticks, seeks counted;
// killcam=N: the killcam drew its verdict, the fatal moment, N frames);
// -autopilot lets a bot play for
// you; -overlay starts with the network overlay shown; -echo-input says on stdout each key and mouse button the
// window saw go down and up, for tests that drive the window through XTEST
// and wait for each press to be seen. With -browse, the menu says "menu: N
// matches" on stdout when the game exits at the menu.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	opts "github.com/sightline-game/sightline/cmd/game/options"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop"
	"github.com/sightline-game/sightline/game/desktop/audio"
	"github.com/sightline-game/sightline/game/desktop/lobby"
)

func main() { os.Exit(run()) }

// run plays the game as the command line says and returns the exit code:
// 2 for a bad command line, 1 when the match cannot start or the window
// fails, 0 otherwise.
func run() int {
	o, ok := parseFlags()
	if !ok {
		return 2
	}
	lv, err := check(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "game:", err)
		return 2
	}
	if o.Watch != "" {
		o.Join, o.Spectate = o.Watch, true
	}
	if o.Join != "" {
		if o.Join, err = lobby.ParseJoin(o.Join); err != nil {
			fmt.Fprintln(os.Stderr, "game: -join:", err)
			return 2
		}
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lv}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	l := newLauncher(log, o)
	defer l.close()
	when, err := exitCondition(o.ExitWhen, l.sound)
	if err != nil {
		fmt.Fprintln(os.Stderr, "game: -exit-when:", err)
		return 2
	}
	l.prefs = loadPrefs(log, o, l.sound)
	l.prefs.Apply() // fullscreen (and the volumes) as the settings say
	l.leave = func() desktop.Scene { return l.menu(ctx, o.LANPort) }
	first, err := firstScene(ctx, l, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "game:", err)
		return 1
	}
	code := play(ctx, first, o, when)
	l.sound.LogCounts()
	return code
}

// options are the command line's settings.
type options = opts.Options

// parseFlags reads the command line into options; ok is false, with the
// reason on stderr, when it cannot.
func parseFlags() (options, bool) {
	o, err := opts.Parse(filepath.Base(os.Args[0]), os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "game: %v (game -h lists the flags)\n", err)
		return o, false
	}
	return o, true
}

// check refuses settings that contradict each other or are out of range,
// and returns the log level -log-level names.
func check(o options) (slog.Level, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(o.Level)); err != nil {
		return lv, fmt.Errorf("-log-level: %w", err)
	}
	modes := 0
	for _, on := range []bool{o.Join != "", o.Watch != "", o.Host, o.Browse, o.Replay != "", o.Broadcast != ""} {
		if on {
			modes++
		}
	}
	switch {
	case modes > 1:
		return lv, errors.New("-join, -watch, -host, -browse, -replay and -broadcast exclude each other")
	case (o.ReplaySpeed != 1 || o.ReplayAt != 0) && o.Replay == "":
		return lv, errors.New("-replay-speed and -replay-at need -replay")
	case o.ReplaySpeed < 0.25 || o.ReplaySpeed > 4:
		return lv, errors.New("-replay-speed must be 0.25-4")
	case o.ReplayAt < 0:
		return lv, errors.New("-replay-at must not be negative")
	case o.Match != "" && o.Join == "" && o.Watch == "":
		return lv, errors.New("-match needs -join or -watch")
	case (o.Invite != "" || o.Relay != "" || o.RelaySecret != "") && (o.Join != "" || o.Browse):
		return lv, errors.New("-invite, -relay and -relay-secret are for hosting (-host)")
	case o.RelayOnly && o.Join == "":
		return lv, errors.New("-relay-only needs -join")
	case o.ICETimeout != 0 && o.Join == "" && o.Watch == "":
		return lv, errors.New("-ice-timeout needs -join or -watch")
	case o.Follow != 0 && o.Watch == "" && o.Replay == "" && o.Broadcast == "":
		return lv, errors.New("-follow needs -watch, -replay or -broadcast")
	case o.Token != "" && o.Join == "" && o.Watch == "":
		return lv, errors.New("-token needs -join or -watch")
	case o.Screenshot != "" && o.ExitAfter <= 0:
		return lv, errors.New("-screenshot needs -exit-after")
	case o.ExitWhen != "" && o.ExitAfter <= 0:
		return lv, errors.New("-exit-when needs -exit-after")
	case o.LANPort < 1 || o.LANPort > 65535:
		return lv, errors.New("-lan-port must be 1-65535")
	case o.UDPPort < 0 || o.UDPPort > 65535:
		return lv, errors.New("-udp-port must be 0-65535")
	}
	if _, err := exitCondition(o.ExitWhen, nil); err != nil {
		return lv, fmt.Errorf("-exit-when: %w", err)
	}
	return lv, nil
}

// newLauncher makes the launcher of the options' matches and games,
// picking the match's seed when -seed leaves it to chance.
func newLauncher(log *slog.Logger, o options) *launcher {
	matchSeed := o.Seed
	if matchSeed == 0 {
		matchSeed = rand.Uint64()
	}
	start := time.Now()
	return &launcher{
		log:   log,
		sound: audio.New(log),
		clock: func() time.Duration { return time.Since(start) },
		seed:  matchSeed,
		host: hostConfig{
			addr: o.Addr, udpPort: o.UDPPort, bots: o.Bots, maxClients: o.MaxClients, seed: matchSeed, web: o.WebDir,
			name: o.MatchName, announce: o.Announce, lanPort: o.LANPort,
			invite: o.Invite, relay: o.Relay, relaySecret: o.RelaySecret, replays: replaysDir(o.Replays),
		},
		play: playConfig{
			follow:    uint32(o.Follow),
			autopilot: o.Autopilot, overlay: o.Overlay, howToPlay: o.HowToPlay, relayOnly: o.RelayOnly, iceTimeout: o.ICETimeout,
			loss: o.Loss, burst: o.Burst, latency: o.Latency, jitter: o.Jitter,
		},
	}
}

// firstScene starts the mode the options choose and returns its first
// scene: the LAN menu (-browse), a game joined to a server (-join, within
// joinTimeout), or a game of a match hosted here (the default).
func firstScene(ctx context.Context, l *launcher, o options) (desktop.Scene, error) {
	switch {
	case o.Browse:
		return l.menu(ctx, o.LANPort), nil
	case o.Replay != "", o.Broadcast != "":
		return l.castView(o)
	case o.Join != "":
		// The window opens at once on the connecting screen; Esc there
		// quits.
		return l.connecting(ctx, o.Join, o.Match, o.Token, o.Spectate, nil), nil
	default:
		g, err := l.hostAndPlay(ctx)
		if err != nil {
			return nil, fmt.Errorf("host: %w", err)
		}
		return g, nil
	}
}

// play runs the window from first until it closes, ctx ends or -exit-after
// passes, reports the menu if the game ended there, and returns the exit
// code.
func play(ctx context.Context, first desktop.Scene, o options, exitWhen func(desktop.Scene) bool) int {
	opt := desktop.Options{MaxFPS: o.FPS, Screenshot: o.Screenshot, ExitAfter: o.ExitAfter, Quit: ctx.Done()}
	if o.EchoInput {
		opt.EchoInput = os.Stdout
	}
	opt.ExitWhen = exitWhen
	app := desktop.NewApp(first, opt)
	err := desktop.RunApp(app, "Sightline")
	if m, ok := app.Scene().(*desktop.Menu); ok {
		reportMenu(m)
	}
	if v, ok := app.Scene().(*desktop.CastView); ok {
		reportCast(v)
	}
	if c, ok := app.Scene().(*desktop.Connecting); ok && c.Err() != nil && !errors.Is(c.Err(), context.Canceled) {
		fmt.Fprintf(os.Stderr, "game: join %s: %s\n  (%v)\n", client.SignalURL(o.Join, o.Match), c.Failure(), c.Err())
		return 1
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "game:", err)
		return 1
	}
	return 0
}

// exitCondition parses -exit-when: what, once it holds for the scene
// shown, ends a timed run (nil for none).
func exitCondition(cond string, snd *audio.Sound) (func(desktop.Scene) bool, error) {
	if cond == "" {
		return nil, nil
	}
	what, count, ok := strings.Cut(cond, "=")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n < 1 {
		return nil, fmt.Errorf("%q: want confirmed=N, listed=N, sounds=N, stages=N, replayed=N, paused=1, copied=1, failed=1, followed=1 or killcam=N with N at least 1", cond)
	}
	switch what {
	case "confirmed":
		return func(s desktop.Scene) bool {
			g, ok := gameOf(s)
			return ok && g.LastDrawn().ShotStats.Confirmed >= uint64(n)
		}, nil
	case "listed":
		return func(s desktop.Scene) bool {
			m, ok := s.(*desktop.Menu)
			return ok && pinged(m.Rows()) >= n
		}, nil
	case "paused":
		return func(s desktop.Scene) bool {
			g, ok := gameOf(s)
			return ok && g.LastDrawn().Paused
		}, nil
	case "failed":
		return func(s desktop.Scene) bool {
			c, ok := s.(*desktop.Connecting)
			return ok && c.Err() != nil
		}, nil
	case "stages":
		return func(s desktop.Scene) bool {
			c, ok := s.(*desktop.Connecting)
			return ok && len(c.LastDrawn().ConnectStages) >= n
		}, nil
	case "replayed":
		return func(s desktop.Scene) bool {
			v, ok := s.(*desktop.CastView)
			return ok && v.Totals().Played >= uint64(n)
		}, nil
	case "killcam":
		return func(s desktop.Scene) bool {
			g, ok := gameOf(s)
			return ok && g.LastDrawn().Killcam != nil && g.LastDrawn().Killcam.Verdicts >= n
		}, nil
	case "followed":
		return func(s desktop.Scene) bool {
			g, ok := gameOf(s)
			return ok && g.LastDrawn().FollowedShown
		}, nil
	case "copied":
		return func(s desktop.Scene) bool {
			g, ok := gameOf(s)
			note := ""
			if ok {
				note = g.LastDrawn().PauseCopy
			}
			return strings.HasPrefix(note, "copied: ") || strings.HasPrefix(note, "copy failed: ")
		}, nil
	case "sounds":
		return func(desktop.Scene) bool {
			total := 0
			for _, c := range snd.Counts() {
				total += c
			}
			return total >= n
		}, nil
	}
	return nil, fmt.Errorf("%q: want confirmed=N, listed=N, sounds=N, stages=N, replayed=N, paused=1, copied=1, failed=1, followed=1 or killcam=N", cond)
}

// gameOf returns the match a scene shows: the Game itself, or the one a
// replay or broadcast (CastView) plays now.
func gameOf(s desktop.Scene) (*desktop.Game, bool) {
	switch s := s.(type) {
	case *desktop.Game:
		return s, true
	case *desktop.CastView:
		return s.Game(), true
	}
	return nil, false
}

// pinged counts the matches among rows with a ping answered.
func pinged(rows []lobby.Row) int {
	n := 0
	for _, r := range rows {
		if r.Kind == lobby.RowMatch && !r.Ping.At.IsZero() && r.Ping.Err == nil {
			n++
		}
	}
	return n
}

// reportMenu says on stdout what the menu listed, and the settings in
// force, when the game ended there.
func reportMenu(m *desktop.Menu) {
	var rows []lobby.Row
	for _, r := range m.Rows() {
		if r.Kind == lobby.RowMatch {
			rows = append(rows, r)
		}
	}
	s := m.Prefs().Settings()
	fmt.Printf("menu: settings: name %q, master %.2f, effects %.2f, mute %v, fullscreen %v, overlay %v\n",
		s.Name, s.MasterVolume, s.EffectsVolume, s.Mute, s.Fullscreen, s.Overlay)
	fmt.Printf("menu: %d matches\n", len(rows))
	for _, r := range rows {
		players, most := r.Players()
		invite := ""
		if u := r.Invite(); u != "" {
			invite = ", invite " + u
		}
		fmt.Printf("menu: %q %d/%d at %s, ping %s%s\n", r.Name(), players, most, r.Match.URL, r.Ping, invite)
	}
}
