// Command game is the desktop client: it plays a match in a window.
//
//	game                         host a local match with 8 bots and play it
//	game -host -addr :8080       host a LAN match others can join, and play it
//	game -join http://HOST:8080  join a match server (cmd/server or another game's -host)
//
// In the game: WASD or arrows move, the mouse aims, left button or space
// fires, Enter chats, Tab shows the scoreboard, F3 the network overlay (with
// 1/2, 3/4, 5/6 adding loss, latency and jitter to the link, 0 clearing).
//
// -loss 0.1 -latency 50ms -jitter 20ms start with that link conditioner set
// (the overlay shows and changes it). For tests and screenshots: -screenshot
// out.png -exit-after 6s saves the frame drawn after 6 s and exits; -fps caps
// the frame rate (under Xvfb there is no vsync); -autopilot lets a bot play
// for you; -overlay starts with the network overlay shown.
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
	"strings"
	"syscall"
	"time"

	"github.com/sightline-game/sightline/game/bots"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/smooth"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

func main() {
	join := flag.String("join", "", "join the match server at this URL (http://host:8080) instead of hosting")
	hostFlag := flag.Bool("host", false, "host a match in this process (the default without -join)")
	addr := flag.String("addr", ":8080", "with -host: HTTP address where LAN players join (\"off\": nobody)")
	webDir := flag.String("web", "out/web", "with -host: the browser build to serve at / (built by `make web`)")
	udpPort := flag.Int("udp-port", 0, "with -host: UDP port for LAN players' data channels (0: any free port)")
	nbots := flag.Int("bots", 8, "with -host: server-side bots in the match")
	maxClients := flag.Int("max-clients", 16, "with -host: most players who may join over the LAN")
	seed := flag.Uint64("seed", 0, "with -host: the match's seed (map, spawns); 0 picks one")
	name := flag.String("name", defaultName(), "your name in the match")
	fps := flag.Int("fps", 0, "cap the frames per second (0: vsync)")
	screenshot := flag.String("screenshot", "", "save the frame drawn at -exit-after as this PNG")
	exitAfter := flag.Duration("exit-after", 0, "quit after this long (0: play until the window closes)")
	autopilot := flag.Bool("autopilot", false, "let a bot steer your player (demos, tests)")
	overlay := flag.Bool("overlay", false, "start with the network overlay (F3) shown")
	loss := flag.Float64("loss", 0, "start with this share (0-0.5) of unreliable messages lost, both ways (F3: 1/2)")
	latency := flag.Duration("latency", 0, "start with this much latency added, each way (F3: 3/4)")
	jitter := flag.Duration("jitter", 0, "start with up to this much jitter added, each way (F3: 5/6)")
	level := flag.String("log-level", "warn", "debug, info, warn or error")
	flag.Parse()

	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintln(os.Stderr, "game: -log-level:", err)
		os.Exit(2)
	}
	if *join != "" && *hostFlag {
		fmt.Fprintln(os.Stderr, "game: -join and -host exclude each other")
		os.Exit(2)
	}
	if *screenshot != "" && *exitAfter <= 0 {
		fmt.Fprintln(os.Stderr, "game: -screenshot needs -exit-after")
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lv}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	start := time.Now()
	clock := func() time.Duration { return time.Since(start) }
	matchSeed := *seed
	if matchSeed == 0 {
		matchSeed = rand.Uint64()
	}

	var conn transport.Conn
	var status string
	if *join != "" {
		dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		c, err := webrtc.Dial(dctx, strings.TrimSuffix(*join, "/")+client.SignalPath, webrtc.DialConfig{IncludeLoopback: true, Logger: log})
		cancel()
		if err != nil {
			fmt.Fprintf(os.Stderr, "game: join %s: %v\n", *join, err)
			os.Exit(1)
		}
		conn, status = c, "playing on "+*join
	} else {
		m, err := host(ctx, log, hostConfig{addr: *addr, udpPort: *udpPort, bots: *nbots, maxClients: *maxClients, seed: matchSeed, web: *webDir})
		if err != nil {
			fmt.Fprintln(os.Stderr, "game: host:", err)
			os.Exit(1)
		}
		go func() {
			if err := <-m.errc; err != nil && ctx.Err() == nil {
				log.Error("match server stopped", "err", err)
			}
		}()
		conn, status = m.join(clock), m.status
	}

	// The conditioner sits between the client and its connection, so the
	// overlay can make the link worse on purpose.
	cond := smooth.NewConditioner(conn, clock, matchSeed^0x636f6e64)
	cond.Set(smooth.Conditions{Loss: *loss, Latency: *latency, Jitter: *jitter})
	cl := client.New(cond, client.Config{Verify: true, Name: *name, Logger: log})
	defer cl.Close()

	cfg := desktop.Config{
		Client: cl, Conditioner: cond, Name: *name, TickRate: protocol.DefaultTickRate,
		MaxFPS: *fps, Screenshot: *screenshot, ExitAfter: *exitAfter, Status: status,
		ShowOverlay: *overlay, Quit: ctx.Done(), Logger: log,
	}
	if *autopilot {
		cfg.Autopilot = bots.NewWanderer(matchSeed ^ 0x6175746f).Next
	}
	g, err := desktop.New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "game:", err)
		os.Exit(1)
	}
	if err := desktop.Run(g, "Sightline"); err != nil {
		fmt.Fprintln(os.Stderr, "game:", err)
		os.Exit(1)
	}
}

func defaultName() string {
	if u, err := user.Current(); err == nil && u.Username != "" && u.Username != "root" {
		return u.Username
	}
	return "player"
}
