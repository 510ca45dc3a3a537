// Command game is the desktop client: it plays a match in a window.
//
//	game                         host a local match with 8 bots and play it
//	game -host -addr :8080       host a LAN match others can join, and play it
//	game -join http://HOST:8080  join a match server (cmd/server or another game's -host)
//	game -browse                 start at a menu of the matches on the LAN
//
// A hosted match with -addr is announced on the LAN (UDP broadcast beacons
// on -lan-port; -announce=false keeps it quiet, -match-name names it), and
// the menu of -browse lists the matches it hears with their players and
// ping: choose one to join it, type an address, or host a match there.
//
// In the game: WASD or arrows move, the mouse aims, left button or space
// fires, Enter chats, Tab shows the scoreboard, F3 the network overlay (with
// 1/2, 3/4, 5/6 adding loss, latency and jitter to the link, 7/8 making
// losses come in runs, 0 clearing).
//
// -loss 0.1 -latency 50ms -jitter 20ms start with that link conditioner set
// (the overlay shows and changes it). For tests and screenshots: -screenshot
// out.png -exit-after 6s saves the frame drawn after 6 s and exits; -fps caps
// the frame rate (under Xvfb there is no vsync); -autopilot lets a bot play
// for you; -overlay starts with the network overlay shown. With -browse, the
// menu says "menu: N matches" on stdout when the game exits at the menu.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/signal"
	"os/user"
	"syscall"
	"time"

	"github.com/sightline-game/sightline/game/desktop"
	"github.com/sightline-game/sightline/game/desktop/lobby"
	"github.com/sightline-game/sightline/netcode/lan"
)

func main() { os.Exit(run()) }

func run() int {
	join := flag.String("join", "", "join the match server at this URL (http://host:8080) instead of hosting")
	hostFlag := flag.Bool("host", false, "host a match in this process (the default without -join or -browse)")
	browse := flag.Bool("browse", false, "start at a menu of the matches on the LAN (join one, type an address, or host)")
	addr := flag.String("addr", ":8080", "with -host: HTTP address where LAN players join (\"off\": nobody)")
	webDir := flag.String("web", "out/web", "with -host: the browser build to serve at / (built by `make web`)")
	udpPort := flag.Int("udp-port", 0, "with -host: UDP port for LAN players' data channels (0: any free port)")
	nbots := flag.Int("bots", 8, "with -host: server-side bots in the match")
	maxClients := flag.Int("max-clients", 16, "with -host: most players who may join over the LAN")
	seed := flag.Uint64("seed", 0, "with -host: the match's seed (map, spawns); 0 picks one")
	matchName := flag.String("match-name", "", "with -host: the match's name on the LAN (default \"<name>'s match\")")
	announce := flag.Bool("announce", true, "with -host: announce the match to LAN browsers (needs -addr)")
	lanPort := flag.Int("lan-port", lan.DefaultPort, "UDP port of the LAN beacons: where hosts announce and -browse listens")
	name := flag.String("name", defaultName(), "your name in the match")
	fps := flag.Int("fps", 0, "cap the frames per second (0: vsync)")
	screenshot := flag.String("screenshot", "", "save the frame drawn at -exit-after as this PNG")
	exitAfter := flag.Duration("exit-after", 0, "quit after this long (0: play until the window closes)")
	autopilot := flag.Bool("autopilot", false, "let a bot steer your player (demos, tests)")
	overlay := flag.Bool("overlay", false, "start with the network overlay (F3) shown")
	loss := flag.Float64("loss", 0, "start with this share (0-0.5) of unreliable messages lost, both ways (F3: 1/2)")
	latency := flag.Duration("latency", 0, "start with this much latency added, each way (F3: 3/4)")
	jitter := flag.Duration("jitter", 0, "start with up to this much jitter added, each way (F3: 5/6)")
	burst := flag.Float64("burst", 0, "start with losses in runs of this mean length, 2-8 (F3: 7/8; <= 1: independent)")
	level := flag.String("log-level", "warn", "debug, info, warn or error")
	flag.Parse()

	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintln(os.Stderr, "game: -log-level:", err)
		return 2
	}
	modes := 0
	for _, on := range []bool{*join != "", *hostFlag, *browse} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		fmt.Fprintln(os.Stderr, "game: -join, -host and -browse exclude each other")
		return 2
	}
	if *screenshot != "" && *exitAfter <= 0 {
		fmt.Fprintln(os.Stderr, "game: -screenshot needs -exit-after")
		return 2
	}
	if *lanPort < 1 || *lanPort > 65535 {
		fmt.Fprintln(os.Stderr, "game: -lan-port must be 1-65535")
		return 2
	}
	if *matchName == "" {
		*matchName = *name + "'s match"
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lv}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	matchSeed := *seed
	if matchSeed == 0 {
		matchSeed = rand.Uint64()
	}
	start := time.Now()
	l := &launcher{
		log:   log,
		clock: func() time.Duration { return time.Since(start) },
		seed:  matchSeed,
		host: hostConfig{
			addr: *addr, udpPort: *udpPort, bots: *nbots, maxClients: *maxClients, seed: matchSeed, web: *webDir,
			name: *matchName, announce: *announce, lanPort: *lanPort,
		},
		play: playConfig{
			name: *name, autopilot: *autopilot, overlay: *overlay,
			loss: *loss, burst: *burst, latency: *latency, jitter: *jitter,
		},
	}
	defer l.close()

	var first desktop.Scene
	switch {
	case *browse:
		first = l.menu(ctx, *lanPort)
	case *join != "":
		dctx, cancel := context.WithTimeout(ctx, joinTimeout)
		g, err := l.join(dctx, *join)
		cancel()
		if err != nil {
			fmt.Fprintf(os.Stderr, "game: join %s: %v\n", *join, err)
			return 1
		}
		first = g
	default:
		g, err := l.hostAndPlay(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, "game: host:", err)
			return 1
		}
		first = g
	}

	app := desktop.NewApp(first, desktop.Options{MaxFPS: *fps, Screenshot: *screenshot, ExitAfter: *exitAfter, Quit: ctx.Done()})
	err := desktop.RunApp(app, "Sightline")
	if m, ok := app.Scene().(*desktop.Menu); ok {
		reportMenu(m)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "game:", err)
		return 1
	}
	return 0
}

// reportMenu says on stdout what the menu listed when the game ended there.
func reportMenu(m *desktop.Menu) {
	var rows []lobby.Row
	for _, r := range m.Rows() {
		if r.Kind == lobby.RowMatch {
			rows = append(rows, r)
		}
	}
	fmt.Printf("menu: %d matches\n", len(rows))
	for _, r := range rows {
		fmt.Printf("menu: %q %d/%d at %s, ping %s\n", r.Match.Name, r.Match.Players, r.Match.MaxPlayers, r.Match.URL, r.Ping)
	}
}

func defaultName() string {
	if u, err := user.Current(); err == nil && u.Username != "" && u.Username != "root" {
		return u.Username
	}
	return "player"
}
