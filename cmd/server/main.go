// Command server runs a dedicated match server: WebRTC signalling and the
// page on one HTTP address, every peer's data channels on one UDP port, and
// the fixed-tick match loop.
//
//	server -addr :8080 -udp-port 8443 -tick 30 -bots 4
//
// With -matches N it hosts N independent matches in the one process, each
// with its own world, -bots bots and tick loop, all on the one HTTP address
// and UDP port: GET /matches lists them, and POST /signal?match=ID joins
// one (without ?match the server picks the fullest with room).
//
// GET /healthz answers "ok". The counters are on a listener of their own,
// -metrics-addr (by default loopback at the HTTP port + 1: 127.0.0.1:8081
// for -addr :8080), never on the public address: GET /metrics has them in
// the Prometheus text format (package game/server/metrics: per match, the
// signalling's, the process's); GET /debug/vars has them as expvar JSON:
// "match" is the first match's, "matches" every match's line of GET
// /matches.
//
// Over the internet: -public-ip IP offers the server's public address
// beside its interfaces' (a cloud VM behind 1:1 NAT, a forwarded port, a
// container), -stun HOST:PORT learns it at start; -relay and -relay-secret
// hand players STUN and TURN servers (GET /ice) with credentials that
// expire and reach only this server; -invite URL hosts from behind a NAT that forwards
// nothing, through a rendezvous (cmd/relay -http), logging the invite link
// players join with.
//
// With -agones the server runs the Agones lifecycle through the SDK
// sidecar's REST interface (localhost:$AGONES_SDK_HTTP_PORT): the
// GameServer's address becomes the public address of the ICE candidates,
// Ready once the HTTP listener is up, Health while it runs, the player count
// as the label "players" (people, summed over the matches), and Shutdown
// once allocated and every match empty, after players have been there or
// after every match has ended a round since the allocation. The server then
// keeps running until the pod is stopped.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sightline-game/sightline/game/agones"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/game/server/metrics"
	"github.com/sightline-game/sightline/game/web"
	"github.com/sightline-game/sightline/netcode/lan"
	"github.com/sightline-game/sightline/netcode/rendezvous"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
	"golang.org/x/time/rate"
)

func main() {
	addr := flag.String("addr", ":8080", "HTTP address for signalling, health and counters")
	udpPort := flag.Int("udp-port", 8443, "UDP port shared by every peer's data channels (0: any free port)")
	tick := flag.Float64("tick", 30, "ticks per second")
	nbots := flag.Int("bots", 0, "server-side bots that join each match")
	nmatches := flag.Int("matches", 1, "independent matches hosted by this process (GET /matches lists them)")
	verify := flag.Bool("verify", false, "send every client a hash of every tick (clients count desyncs)")
	creatures := flag.Int("creatures", arena.DefaultCreatures, "creatures roaming the arena (0: none)")
	seed := flag.Uint64("seed", 1, "seed of the map and the match")
	maxClients := flag.Int("max-clients", 64, "most people (WebRTC clients) in each match, besides its bots")
	maxSpectators := flag.Int("max-spectators", server.DefaultMaxSpectators, "most spectators watching each match at once (POST /signal?watch=1; 0: none)")
	timeout := flag.Duration("timeout", 5*time.Second, "drop a client silent for this long")
	connectTimeout := flag.Duration("connect-timeout", webrtc.DefaultConnectTimeout, "how long a peer has, from its offer, to open its channels (a slow device or a busy host may need more)")
	rate := flag.Float64("rate", protocol.DefaultRate, "snapshot budget per client, bytes per second")
	radius := flag.Float64("view-radius", protocol.ViewRadius, "how far a player sees, in px")
	loopback := flag.Bool("loopback", true, "offer loopback ICE candidates (for clients on this machine)")
	level := flag.String("log-level", "info", "debug, info, warn or error")
	webDir := flag.String("web", "out/web", "directory with the browser build (game.wasm, wasm_exec.js), served at /")
	offerRate := flag.Float64("offer-rate", 2, "WebRTC offers per second allowed from one address (a burst of -offer-burst)")
	offerBurst := flag.Int("offer-burst", 5, "offers one address may make at once")
	announce := flag.Bool("announce", true, "announce the match on the LAN with a UDP beacon every second")
	matchName := flag.String("match-name", "Sightline match", "the server's name in LAN listings (and the match's, with -matches 1)")
	debugGC := flag.Bool("debug-gc", false, "serve POST /debug/gc on -metrics-addr: a full collection, answering the live heap (for leak checks)")
	metricsAddr := flag.String("metrics-addr", "", "where to serve /metrics, /debug/vars and /healthz, apart from the public address (default: loopback at the HTTP port + 1, 127.0.0.1:8081 for -addr :8080; \"off\": nowhere)")
	useAgones := flag.Bool("agones", false, "run the Agones lifecycle through the SDK sidecar (localhost:$AGONES_SDK_HTTP_PORT)")
	agonesHealth := flag.Duration("agones-health", 2*time.Second, "with -agones: the time between health pings to the SDK sidecar")
	maxRewind := flag.Duration("max-rewind", arena.DefaultRewindTicks*time.Second/arena.TickRate,
		"judge a shot against the targets as its shooter saw them, at most this far back (0: in the present; at most 1s)")
	tokenKey := flag.String("token-key", "", "admit only players with a join token sealed with the key in this file (64 hex digits; cmd/token mints them); empty: anyone may join")
	tokenServer := flag.String("token-server", "", "with -token-key: this server's host:port as tokens name it (default: the first -public-ip with the HTTP port, or -addr if it names a host; with -agones, the GameServer's address and HTTP port); tokens naming another server are refused")
	tlsCert := flag.String("tls-cert", "", "serve the page, the build and /signal over HTTPS with this certificate (PEM; with -tls-key)")
	tlsKey := flag.String("tls-key", "", "the private key of -tls-cert (PEM)")
	readInterval := flag.Duration("read-interval", defaultReadInterval,
		"read the UDP socket in rounds: one at each match's tick, through the WebRTC stack before the tick steps, and at most this far apart (0: every datagram as it arrives, at about twice the CPU per player)")
	udpBuffer := flag.Int("udp-buffer", webrtc.DefaultReceiveBuffer, "with -read-interval: the UDP receive buffer asked of the kernel, in bytes (granted at most net.core.rmem_max; the socket is drained between rounds as often as a smaller one needs)")
	publicIP := flag.String("public-ip", os.Getenv("SIGHTLINE_PUBLIC_IP"), "the server's public addresses (IP[,IP]), offered to players beside its interfaces': behind a cloud's 1:1 NAT, a router that forwards -udp-port, or Docker's port mapping (default: $SIGHTLINE_PUBLIC_IP)")
	stunServer := flag.String("stun", "", "learn the public address at start from this STUN server (HOST:PORT), through the UDP port; default with -invite: the first turn: relay of -relay, else port 3478 of the rendezvous's host")
	relay := flag.String("relay", "", "STUN and TURN servers handed to every joining player at GET /ice (turn:HOST:PORT[?transport=tcp], turns:..., stun:..., comma-separated); cmd/relay runs one")
	relaySecret := flag.String("relay-secret", "", "the secret shared with the -relay TURN servers (a file of 64 hex digits; cmd/relay -new-secret makes one): players get credentials minted with it, scoped to this server's public addresses, that expire in 12 hours")
	invite := flag.String("invite", "", "host through the rendezvous at this URL (cmd/relay -http): keeps a connection to it and logs an invite link players join with, no port forwarding needed")
	castOn := flag.Bool("broadcast", false, "publish each match as a broadcast any HTTP cache can fan out, at GET /broadcast/ID/ (index.json, N/key, N/delta; cmd/game -broadcast URL plays it)")
	castDelay := flag.Duration("broadcast-delay", server.DefaultBroadcastDelay, "with -broadcast: how long each fragment is held back, so that watching does not help a player (0 for a LAN)")
	record := flag.String("record", "", "keep each match as a replay file in this directory (the broadcast's format; cmd/game -replay FILE plays it)")
	procs := flag.Int("procs", 0, "the most OS threads running Go code at once (GOMAXPROCS); 0: one per match, at most the CPUs (or $GOMAXPROCS if set)")
	flag.Parse()

	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintln(os.Stderr, "server: -log-level:", err)
		os.Exit(2)
	}
	if *creatures < 0 {
		fmt.Fprintln(os.Stderr, "server: -creatures is not negative (0: none)")
		os.Exit(2)
	}
	if *nmatches < 1 {
		fmt.Fprintln(os.Stderr, "server: -matches must be at least 1")
		os.Exit(2)
	}
	if *maxRewind > arena.MaxRewindTicks*time.Second/arena.TickRate {
		fmt.Fprintf(os.Stderr, "server: -max-rewind %v: at most %v\n", *maxRewind, arena.MaxRewindTicks*time.Second/arena.TickRate)
		os.Exit(2)
	}
	if (*tlsCert == "") != (*tlsKey == "") {
		fmt.Fprintln(os.Stderr, "server: -tls-cert and -tls-key go together")
		os.Exit(2)
	}
	if err := (server.Config{TickRate: *tick, Rate: *rate}).Validate(); err != nil {
		fmt.Fprintln(os.Stderr, "server: -rate:", err)
		os.Exit(2)
	}
	if *readInterval < 0 || *procs < 0 {
		fmt.Fprintln(os.Stderr, "server: -read-interval and -procs are not negative")
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lv}))
	setProcs(log, *procs, *nmatches)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, log, options{
		addr: *addr, udpPort: *udpPort, tick: *tick, bots: *nbots, matches: *nmatches, verify: *verify, creatures: *creatures,
		seed: *seed, maxClients: *maxClients, maxSpectators: *maxSpectators, timeout: *timeout, connectTimeout: *connectTimeout, loopback: *loopback, rate: *rate, radius: *radius, web: *webDir, announce: *announce, name: *matchName,
		offerRate: *offerRate, offerBurst: *offerBurst, debugGC: *debugGC, agones: *useAgones, agonesHealth: *agonesHealth, maxRewind: *maxRewind,
		tokenKey: *tokenKey, tokenServer: *tokenServer, tlsCert: *tlsCert, tlsKey: *tlsKey,
		readInterval: *readInterval, udpBuffer: *udpBuffer, metricsAddr: *metricsAddr,
		publicIPs: splitList(*publicIP), stun: *stunServer, relay: *relay, relaySecret: *relaySecret, invite: *invite,
		broadcast: *castOn, broadcastDelay: *castDelay, record: *record,
	}); err != nil {
		log.Error("server stopped", "err", err)
		os.Exit(1)
	}
}

type options struct {
	addr       string
	udpPort    int
	tick       float64
	bots       int
	matches    int
	verify     bool
	creatures  int
	seed       uint64
	maxClients int
	// maxSpectators is the most spectators of each match (0: none).
	maxSpectators int
	timeout       time.Duration
	// connectTimeout is the WebRTC server's ConnectTimeout.
	connectTimeout time.Duration
	loopback       bool
	rate           float64
	radius         float64
	web            string
	announce       bool
	name           string
	offerRate      float64
	offerBurst     int
	debugGC        bool
	agones         bool
	// agonesHealth is the time between health pings with -agones.
	agonesHealth time.Duration
	// maxRewind is the farthest back a shot is judged (-max-rewind).
	maxRewind time.Duration
	// tokenKey is the join tokens' key file, tokenServer the address they
	// must name (-token-key, -token-server).
	tokenKey, tokenServer string
	// tlsCert and tlsKey serve HTTPS (-tls-cert, -tls-key).
	tlsCert, tlsKey string
	// readInterval is the longest time between two rounds of reading the
	// UDP socket (-read-interval); 0 reads every datagram as it comes.
	readInterval time.Duration
	// udpBuffer is the receive buffer the UDP socket asks for (-udp-buffer).
	udpBuffer int
	// metricsAddr is -metrics-addr: where the counters are served ("":
	// loopback at the HTTP port + 1; metricsOff: nowhere).
	metricsAddr string
	// beforeTick, set by run, is each match's Config.BeforeTick.
	beforeTick func(due time.Time)
	// publicIPs are offered beside the interfaces' addresses (-public-ip);
	// stun is asked for another at start (-stun).
	publicIPs []string
	stun      string
	// relay and relaySecret are the ICE servers handed to players and the
	// secret their TURN credentials are minted with (-relay, -relay-secret).
	relay, relaySecret string
	// invite is the rendezvous a host behind NAT is reached through (-invite).
	invite string
	// broadcast serves each match's broadcast, held back broadcastDelay
	// (-broadcast, -broadcast-delay); record keeps each as a replay file in
	// that directory (-record).
	broadcast      bool
	broadcastDelay time.Duration
	record         string
	// casts, set by run, are the matches' broadcasts.
	casts *casts
}

// splitList splits a comma-separated flag, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func run(ctx context.Context, log *slog.Logger, o options) error {
	// The matches read a round of the socket at each tick, before the
	// step; the WebRTC server they read through is made below (its Route
	// needs the host), before any match runs.
	var rtc *webrtc.Server
	if o.readInterval > 0 {
		o.beforeTick = func(due time.Time) { rtc.ReadRound(due) }
	}
	o.casts = newCasts(log, o)
	host, err := newHost(log, o)
	if err != nil {
		return err
	}
	first := host.Matches()[0].Server
	var sdk *agones.Client
	var publicIPs []string
	var gamePort int
	if o.agones {
		sdk = agones.New(agones.Config{BaseURL: agones.BaseURLFromEnv(os.Getenv), Logger: log, HealthPeriod: o.agonesHealth})
		gs, err := sdk.WaitGameServer(ctx)
		if err != nil {
			return err
		}
		if net.ParseIP(gs.Status.Address) != nil {
			publicIPs = []string{gs.Status.Address}
		}
		for _, p := range gs.Status.Ports {
			switch p.Name {
			case "udp", "game", "webrtc":
				gamePort = p.Port
			case "http":
				if o.tokenServer == "" && gs.Status.Address != "" {
					o.tokenServer = net.JoinHostPort(gs.Status.Address, strconv.Itoa(p.Port))
				}
			}
		}
		log.Info("agones: GameServer", "name", gs.ObjectMeta.Name, "state", gs.Status.State, "address", gs.Status.Address, "udp_port", gamePort)
	}
	met := metrics.New(metrics.Config{Host: host})
	tokens, err := tokenChecker(log, o)
	if err != nil {
		return err
	}
	if o.stun == "" && o.invite != "" {
		o.stun = web.STUNFor(o.relay, o.invite)
	}
	handout, err := web.Handout(o.relay, o.relaySecret, o.stun)
	if err != nil {
		return err
	}
	rtc, err = webrtc.NewServer(webrtc.ServerConfig{
		Version: protocol.Version, ReadInterval: o.readInterval, ReceiveBuffer: o.udpBuffer, ConnectTimeout: o.connectTimeout,
		UDPPort: o.udpPort, IncludeLoopback: o.loopback, MaxSessions: (o.maxClients + o.maxSpectators) * o.matches, Logger: log,
		OfferRate: rate.Limit(o.offerRate), OfferBurst: o.offerBurst,
		PublicIPs: append(publicIPs, o.publicIPs...), STUNServer: o.stun,
		Route: func(r *http.Request, live func(string) int) (string, error) { return route(host, r, live) },
		Admit: admitter(tokens, met), Settle: settler(tokens),
	})
	if err != nil {
		return fmt.Errorf("webrtc: %w", err)
	}
	defer rtc.Close()

	healthz := func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") }
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", healthz)
	// The counters, on their own listener (served below).
	met.WatchSignalling(rtc.Stats)
	counters := http.NewServeMux()
	counters.HandleFunc("GET /healthz", healthz)
	counters.Handle("GET /metrics", met.Handler())
	counters.Handle("GET /debug/vars", serveVars(func() map[string]any {
		return map[string]any{"match": first.Stats(), "matches": host.List(), "heap": readHeap(), "broadcast": o.casts.stats()}
	}))
	if o.debugGC {
		counters.HandleFunc("POST /debug/gc", serveGC)
	}
	site, err := web.Load(o.web)
	if err != nil {
		log.Warn("no browser build to serve", "err", err)
		mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "The browser build is missing on this server: run `make web`.", http.StatusNotFound)
		})
	} else {
		sz, _ := site.Sizes("/" + web.WasmFile)
		log.Info("serving the browser client", "dir", o.web, "wasm_bytes", sz.Raw, "wasm_gzip_bytes", sz.Gzip, "wasm_brotli_bytes", sz.Brotli)
		for _, path := range []string{"/", "/" + web.ExecFile, "/" + web.WasmFile} {
			sz, _ := site.Sizes(path)
			for _, note := range sz.Notes {
				log.Warn("browser client: "+note, "dir", o.web)
			}
		}
	}
	web.Mount(mux, client.SignalPath, rtc, site)
	mux.Handle(client.MatchesPath, host)
	mux.Handle("GET "+BroadcastPath+"{match}/", o.casts)
	// With -invite and no relay of its own, the server hands out the
	// relay credentials the rendezvous gives it.
	var relayed atomic.Pointer[json.RawMessage]
	// The invite link, once the rendezvous has given one (-invite): the
	// LAN beacons carry it.
	var inviteLink atomic.Pointer[string]
	// The credentials reach only this server's public addresses.
	handout.Peers = web.PublicAddrs(rtc.PublicIPs()...)
	mux.Handle("GET "+protocol.ICEServersPath, web.ICEServers(web.ICEConfig{Logger: log, Handout: handout, Relayed: relayed.Load, Tokens: tokens}))
	httpSrv := web.NewHTTPServer(web.SecureHeaders(mux), slog.NewLogLogger(log.Handler(), slog.LevelWarn))
	if o.tlsCert != "" {
		httpSrv.TLSConfig = web.TLSConfig()
	}

	metricsAddr, err := metricsAddrFor(o.metricsAddr, o.addr)
	if err != nil {
		return err
	}
	var countersSrv *http.Server
	if metricsAddr != "" {
		l, err := net.Listen("tcp", metricsAddr)
		if err != nil {
			return fmt.Errorf("-metrics-addr: %w", err)
		}
		metricsAddr = l.Addr().String()
		countersSrv = web.NewHTTPServer(counters, slog.NewLogLogger(log.Handler(), slog.LevelWarn))
		defer countersSrv.Close()
		go func() {
			if err := countersSrv.Serve(web.LimitConns(l, 0, 0)); !errors.Is(err, http.ErrServerClosed) {
				log.Error("metrics listener", "addr", metricsAddr, "err", err)
			}
		}()
	}

	tcp, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	ln := web.LimitConns(tcp, 0, 0)
	met.Registry().MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "sightline_http_connections_open",
			Help: "HTTP connections open now.",
		}, func() float64 { return float64(ln.Open()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sightline_http_connections_refused_total",
			Help: "HTTP connections closed as soon as accepted, beyond the bound per address (an IPv6 /64) or in all.",
		}, func() float64 { return float64(ln.Refused()) }),
	)
	port := ln.Addr().(*net.TCPAddr).Port
	errc := make(chan error, 4)
	go func() {
		err := host.Run(ctx, rtc.AcceptRoute)
		o.casts.close() // the matches have stopped: their broadcasts end
		errc <- err
	}()
	go func() {
		var err error
		if o.tlsCert != "" {
			err = httpSrv.ServeTLS(ln, o.tlsCert, o.tlsKey) // HTTP/2 when the client offers it
		} else {
			err = httpSrv.Serve(ln)
		}
		if !errors.Is(err, http.ErrServerClosed) {
			errc <- err
		}
	}()
	if o.invite != "" {
		go func() {
			// Without a relay of its own, the rendezvous hands each player
			// a relay credential of its own, scoped to this host.
			err := rendezvous.Host(ctx, rendezvous.HostConfig{URL: o.invite, Handler: mux, Logger: log,
				UseRelay: !handout.HasTURN(), PublicIPs: handout.Peers, OnInvite: func(inv rendezvous.Invite) {
					if !handout.HasTURN() && len(inv.ICEServers) > 0 {
						relayed.Store(&inv.ICEServers)
					}
					inviteLink.Store(&inv.URL)
					logJoins(log, inviteLine(inv.URL))
				}})
			if ctx.Err() == nil {
				errc <- fmt.Errorf("-invite: %w", err)
			}
		}()
	}
	if o.announce {
		go lan.Announce(ctx, lan.AnnounceConfig{Logger: log, Beacon: func() lan.Beacon {
			players, capacity := host.Players()
			b := lan.Beacon{Name: o.name, Players: players, MaxPlayers: capacity, HTTPPort: uint16(port)}
			if u := inviteLink.Load(); u != nil {
				b.Invite = *u
			}
			return b
		}})
	}
	for _, u := range lan.JoinURLs(port) {
		if o.tlsCert != "" {
			u = "https" + strings.TrimPrefix(u, "http")
		}
		log.Info("players on the LAN join at "+u, "browser", u+"/", "desktop", "go run ./cmd/game -join "+u)
	}
	scheme := "http"
	if o.tlsCert != "" {
		scheme = "https"
	}
	stunAddr, _ := rtc.STUNAddr()
	logJoins(log, outsideJoins(outsideSources{scheme: scheme, httpPort: port, publicIPs: o.publicIPs, agonesIPs: publicIPs,
		stunServer: o.stun, stunAddr: stunAddr})...)
	if sdk != nil {
		if gamePort != 0 && gamePort != rtc.LocalUDPPort() {
			log.Warn("agones: the GameServer's public UDP port differs from -udp-port; ICE candidates carry -udp-port (use portPolicy Passthrough or Static with the same port)",
				"public", gamePort, "udp_port", rtc.LocalUDPPort())
		}
		life := agones.NewLifecycle(sdk, host.People)
		go func() { errc <- life.Run(ctx) }()
		go watchRounds(ctx, life, host, time.Second)
	}
	if o.bots > 0 {
		for i, m := range host.Matches() {
			if _, err := bots.Start(ctx, bots.Config{Count: o.bots, TickRate: o.tick, Seed: 1 + uint64(i)}, m.Server.Add); err != nil {
				return err
			}
		}
	}
	log.Info("match server up", "http", o.addr, "metrics", metricsAddr, "signal", "POST /signal", "matches", o.matches, "udp_port", rtc.LocalUDPPort(), "tick_hz", o.tick, "bots_per_match", o.bots,
		"budget_Bps", o.rate, "view_radius_px", o.radius)

	select {
	case <-ctx.Done():
	case err := <-errc:
		if err != nil {
			return err
		}
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	select { // the recordings' last fragments are written as the matches stop
	case <-o.casts.closed:
	case <-shutdown.Done():
	}
	return httpSrv.Shutdown(shutdown)
}
