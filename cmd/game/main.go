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
// How to play, Leave match for the LAN menu, Quit game). F2 on the menu opens the
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
// stages=N: the connecting screen shows N stages reached; failed=1: it
// shows why the join failed; followed=1: a spectator drew the player it
// follows);
// -autopilot lets a bot play for
// you; -overlay starts with the network overlay shown; -echo-input says on stdout each key and mouse button the
// window saw go down and up, for tests that drive the window through XTEST
// and wait for each press to be seen. With -browse, the menu says "menu: N
// matches" on stdout when the game exits at the menu.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop"
	"github.com/sightline-game/sightline/game/desktop/audio"
	"github.com/sightline-game/sightline/game/desktop/lobby"
	"github.com/sightline-game/sightline/netcode/lan"
)

func main() { os.Exit(run()) }

// run plays the game as the command line says and returns the exit code:
// 2 for a bad command line, 1 when the match cannot start or the window
// fails, 0 otherwise.
func run() int {
	o := parseFlags()
	lv, err := o.check()
	if err != nil {
		fmt.Fprintln(os.Stderr, "game:", err)
		return 2
	}
	if o.watch != "" {
		o.join, o.spectate = o.watch, true
	}
	if o.join != "" {
		if o.join, err = lobby.ParseJoin(o.join); err != nil {
			fmt.Fprintln(os.Stderr, "game: -join:", err)
			return 2
		}
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lv}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	l := newLauncher(log, o)
	defer l.close()
	when, err := exitCondition(o.exitWhen, l.sound)
	if err != nil {
		fmt.Fprintln(os.Stderr, "game: -exit-when:", err)
		return 2
	}
	l.prefs = loadPrefs(log, o, l.sound)
	l.prefs.Apply() // fullscreen (and the volumes) as the settings say
	l.leave = func() desktop.Scene { return l.menu(ctx, o.lanPort) }
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
type options struct {
	join, match, token, addr, webDir, matchName, name, screenshot, level string
	exitWhen                                                             string
	invite, relay, relaySecret                                           string
	relayOnly, spectate                                                  bool
	watch                                                                string
	host, browse, announce, autopilot, overlay, echoInput, howToPlay     bool
	udpPort, bots, maxClients, lanPort, fps                              int
	seed                                                                 uint64
	exitAfter, latency, jitter, iceTimeout                               time.Duration
	loss, burst                                                          float64
}

// parseFlags reads the command line into options.
func parseFlags() options {
	var o options
	flag.StringVar(&o.join, "join", "", "join the match server at this address (HOST:PORT or http://HOST:PORT) or invite link instead of hosting")
	flag.StringVar(&o.watch, "watch", "", "watch the match at this address (as -join) without playing: Space next player, L leader, K last killer, F free camera")
	flag.StringVar(&o.match, "match", "", "with -join: the match to join on a server hosting several (an id from its /matches); empty: the server picks")
	flag.StringVar(&o.token, "token", "", "with -join: the join token the host gave you (for a server run with -token-key)")
	flag.BoolVar(&o.host, "host", false, "host a match in this process (the default without -join or -browse)")
	flag.BoolVar(&o.browse, "browse", false, "start at a menu of the matches on the LAN (join one, type an address, or host)")
	flag.StringVar(&o.addr, "addr", ":8080", "with -host: HTTP address where LAN players join (\"off\": nobody)")
	flag.StringVar(&o.webDir, "web", "out/web", "with -host: the browser build to serve at / (built by make web)")
	flag.IntVar(&o.udpPort, "udp-port", 8443, "with -host: UDP port of the players' data channels (when taken, as by a second host on this machine, a free port instead, with a warning; 0: any free port)")
	flag.IntVar(&o.bots, "bots", 8, "with -host: server-side bots in the match")
	flag.IntVar(&o.maxClients, "max-clients", 16, "with -host: most players who may join over the LAN")
	flag.Uint64Var(&o.seed, "seed", 0, "with -host: the match's seed (map, spawns); 0 picks one")
	flag.StringVar(&o.matchName, "match-name", "", "with -host: the match's name on the LAN (default \"<your name>'s match\")")
	flag.StringVar(&o.invite, "invite", "", "with -host: host through the rendezvous at this URL (cmd/relay -http): friends anywhere join with the invite link it gives, no port forwarding")
	flag.StringVar(&o.relay, "relay", "", "with -host: STUN and TURN servers for your players (turn:HOST:PORT,...); with -invite, default: those the rendezvous hands out")
	flag.StringVar(&o.relaySecret, "relay-secret", "", "with -host -relay: the relay's secret (a file of 64 hex digits), to mint your players' TURN credentials")
	flag.DurationVar(&o.iceTimeout, "ice-timeout", 0, "with -join: give up when no network path to the server works this long after it answered (0: at the join's 15 s limit)")
	flag.BoolVar(&o.relayOnly, "relay-only", false, "with -join: send everything through the TURN relay the server hands out (for testing the relay)")
	flag.BoolVar(&o.announce, "announce", true, "with -host: announce the match to LAN browsers (needs -addr)")
	flag.IntVar(&o.lanPort, "lan-port", lan.DefaultPort, "UDP port of the LAN beacons: where hosts announce and -browse listens")
	flag.StringVar(&o.name, "name", "", "your name for this run (default: the name in the settings, else the system user's)")
	flag.IntVar(&o.fps, "fps", 0, "cap the frames per second (0: vsync)")
	flag.StringVar(&o.screenshot, "screenshot", "", "save the frame drawn at -exit-after as this PNG")
	flag.DurationVar(&o.exitAfter, "exit-after", 0, "quit this long after the match is on screen (its first frame with the server's world; at the menu, its first frame), however long the start took (0: play until the window closes)")
	flag.StringVar(&o.exitWhen, "exit-when", "", "with -exit-after: quit (and take the screenshot) as soon as this holds, -exit-after at the latest: confirmed=N (the server's copies of N of your predicted shots were seen), listed=N (the menu lists N matches with a ping), sounds=N (N sound effects were asked for), paused=1 (the pause menu is on screen), stages=N (the connecting screen shows N stages of a join reached), failed=1 (the connecting screen shows why a join failed), followed=1 (a spectator drew the player it follows); for tests, on a machine of any speed")
	flag.BoolVar(&o.echoInput, "echo-input", false, "say on stdout each key and mouse button the window sees go down and up (\"input: key Escape down\"), and \"input: live\" when the scene is on screen: for tests that drive the window through XTEST and wait for each press to be seen")
	flag.BoolVar(&o.autopilot, "autopilot", false, "let a bot steer your player (demos, tests)")
	flag.BoolVar(&o.overlay, "overlay", false, "start with the network overlay (F3) shown, whatever the settings")
	flag.BoolVar(&o.howToPlay, "how-to-play", false, "show the how-to-play card at the match's start, even if you dismissed it before (a match shows it until you first do; Esc > How to play shows it any time)")
	flag.Float64Var(&o.loss, "loss", 0, "start with this share (0-0.5) of unreliable messages lost, both ways (F3: 1/2)")
	flag.DurationVar(&o.latency, "latency", 0, "start with this much latency added, each way (F3: 3/4)")
	flag.DurationVar(&o.jitter, "jitter", 0, "start with up to this much jitter added, each way (F3: 5/6)")
	flag.Float64Var(&o.burst, "burst", 0, "start with losses in runs of this mean length, 2-8 (F3: 7/8; <= 1: independent)")
	flag.StringVar(&o.level, "log-level", "warn", "debug, info, warn or error")
	flag.Parse()
	return o
}

// check refuses settings that contradict each other or are out of range,
// and returns the log level -log-level names.
func (o options) check() (slog.Level, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(o.level)); err != nil {
		return lv, fmt.Errorf("-log-level: %w", err)
	}
	modes := 0
	for _, on := range []bool{o.join != "", o.watch != "", o.host, o.browse} {
		if on {
			modes++
		}
	}
	switch {
	case modes > 1:
		return lv, errors.New("-join, -watch, -host and -browse exclude each other")
	case o.match != "" && o.join == "" && o.watch == "":
		return lv, errors.New("-match needs -join or -watch")
	case (o.invite != "" || o.relay != "" || o.relaySecret != "") && (o.join != "" || o.browse):
		return lv, errors.New("-invite, -relay and -relay-secret are for hosting (-host)")
	case o.relayOnly && o.join == "":
		return lv, errors.New("-relay-only needs -join")
	case o.iceTimeout != 0 && o.join == "" && o.watch == "":
		return lv, errors.New("-ice-timeout needs -join or -watch")
	case o.token != "" && o.join == "" && o.watch == "":
		return lv, errors.New("-token needs -join or -watch")
	case o.screenshot != "" && o.exitAfter <= 0:
		return lv, errors.New("-screenshot needs -exit-after")
	case o.exitWhen != "" && o.exitAfter <= 0:
		return lv, errors.New("-exit-when needs -exit-after")
	case o.lanPort < 1 || o.lanPort > 65535:
		return lv, errors.New("-lan-port must be 1-65535")
	case o.udpPort < 0 || o.udpPort > 65535:
		return lv, errors.New("-udp-port must be 0-65535")
	}
	if _, err := exitCondition(o.exitWhen, nil); err != nil {
		return lv, fmt.Errorf("-exit-when: %w", err)
	}
	return lv, nil
}

// newLauncher makes the launcher of the options' matches and games,
// picking the match's seed when -seed leaves it to chance.
func newLauncher(log *slog.Logger, o options) *launcher {
	matchSeed := o.seed
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
			addr: o.addr, udpPort: o.udpPort, bots: o.bots, maxClients: o.maxClients, seed: matchSeed, web: o.webDir,
			name: o.matchName, announce: o.announce, lanPort: o.lanPort,
			invite: o.invite, relay: o.relay, relaySecret: o.relaySecret,
		},
		play: playConfig{
			autopilot: o.autopilot, overlay: o.overlay, howToPlay: o.howToPlay, relayOnly: o.relayOnly, iceTimeout: o.iceTimeout,
			loss: o.loss, burst: o.burst, latency: o.latency, jitter: o.jitter,
		},
	}
}

// firstScene starts the mode the options choose and returns its first
// scene: the LAN menu (-browse), the connecting screen of a join (-join,
// within joinTimeout), or a game of a match hosted here (the default).
func firstScene(ctx context.Context, l *launcher, o options) (desktop.Scene, error) {
	switch {
	case o.browse:
		return l.menu(ctx, o.lanPort), nil
	case o.join != "":
		// The window opens at once on the connecting screen; Esc there
		// quits.
		return l.connecting(ctx, o.join, o.match, o.token, o.spectate, nil), nil
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
	opt := desktop.Options{MaxFPS: o.fps, Screenshot: o.screenshot, ExitAfter: o.exitAfter, Quit: ctx.Done()}
	if o.echoInput {
		opt.EchoInput = os.Stdout
	}
	opt.ExitWhen = exitWhen
	app := desktop.NewApp(first, opt)
	err := desktop.RunApp(app, "Sightline")
	if m, ok := app.Scene().(*desktop.Menu); ok {
		reportMenu(m)
	}
	if c, ok := app.Scene().(*desktop.Connecting); ok && c.Err() != nil && !errors.Is(c.Err(), context.Canceled) {
		fmt.Fprintf(os.Stderr, "game: join %s: %s\n  (%v)\n", client.SignalURL(o.join, o.match), c.Failure(), c.Err())
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
		return nil, fmt.Errorf("%q: want confirmed=N, listed=N, sounds=N, stages=N, paused=1, failed=1 or followed=1 with N at least 1", cond)
	}
	switch what {
	case "confirmed":
		return func(s desktop.Scene) bool {
			g, ok := s.(*desktop.Game)
			return ok && g.LastDrawn().ShotStats.Confirmed >= uint64(n)
		}, nil
	case "listed":
		return func(s desktop.Scene) bool {
			m, ok := s.(*desktop.Menu)
			return ok && pinged(m.Rows()) >= n
		}, nil
	case "paused":
		return func(s desktop.Scene) bool {
			g, ok := s.(*desktop.Game)
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
	case "followed":
		return func(s desktop.Scene) bool {
			g, ok := s.(*desktop.Game)
			return ok && g.LastDrawn().FollowedShown
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
	return nil, fmt.Errorf("%q: want confirmed=N, listed=N, sounds=N, stages=N, paused=1, failed=1 or followed=1", cond)
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
		fmt.Printf("menu: %q %d/%d at %s, ping %s\n", r.Name(), players, most, r.Match.URL, r.Ping)
	}
}
