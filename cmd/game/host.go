package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/game/web"
	"github.com/sightline-game/sightline/netcode/lan"
	"github.com/sightline-game/sightline/netcode/rendezvous"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/memory"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
	"github.com/sightline-game/sightline/netcode/udpport"
)

// hostConfig is a match hosted in the game's own process.
type hostConfig struct {
	addr       string // HTTP address for WebRTC signalling ("" or "off": local only)
	udpPort    int    // the players' UDP port (taken: a free one instead)
	bots       int
	maxClients int
	seed       uint64
	web        string // directory of the browser build to serve at /
	name       string // the match's name on the LAN
	announce   bool   // broadcast the match's beacon on the LAN (with addr)
	lanPort    int    // UDP port of the beacons (0: lan.DefaultPort)
	// invite is the rendezvous to host through (-invite); relay and
	// relaySecret the ICE servers handed to players (-relay,
	// -relay-secret; with -invite and none, the rendezvous's).
	invite, relay, relaySecret string
	// replays is the folder the match is recorded into ("": not recorded).
	replays string
}

// match is a running in-process match server.
type match struct {
	srv      *server.Server
	status   string // what the HUD says about it
	port     int    // the HTTP port LAN players join on (0: none)
	httpAddr string // the address listened on
	loopback bool   // listening on a loopback address: only this machine joins
	errc     chan error
	invite   atomic.Pointer[string] // the invite link, with -invite, once given
}

// host starts a match server with the arena's rules, its bots, and WebRTC
// signalling on cfg.addr so that players on the LAN can join, the same
// pieces cmd/server assembles. It runs until ctx ends.
func host(ctx context.Context, log *slog.Logger, cfg hostConfig) (*match, error) {
	world, err := arena.NewWorld(arena.Config{Seed: cfg.seed, MaxPlayers: cfg.maxClients + cfg.bots + 1})
	if err != nil {
		return nil, err
	}
	rec, err := record(log, cfg.replays)
	if err != nil {
		log.Warn("not recording the match", "err", err)
	}
	srv, err := server.New(server.Config{
		TickRate: protocol.DefaultTickRate, MaxClients: cfg.maxClients + cfg.bots + 1, Logger: log,
		Broadcast: rec.sinks(),
	}, server.NewMatch(world))
	if err != nil {
		rec.close(log)
		return nil, err
	}
	m := &match{srv: srv, errc: make(chan error, 4)}
	go func() {
		err := m.srv.Run(ctx)
		rec.close(log) // the match's last fragment is written: the file is whole
		m.errc <- err
	}()
	m.status = "local match (no LAN)"
	if cfg.addr != "" && cfg.addr != "off" {
		if err := m.listen(ctx, log, cfg); err != nil {
			// The local game still works; say why nobody else can join.
			log.Warn("LAN hosting off", "err", err)
			m.status = "LAN hosting off: " + err.Error()
		}
	}
	switch {
	case m.port == 0:
	case m.loopback:
		// Nobody on the LAN reaches it: say so, and announce nothing.
		u := "http://" + m.httpAddr
		log.Info("listening on loopback only: not announced on the LAN", "url", u)
		fmt.Printf("only this machine can join (-addr is loopback): go run ./cmd/game -join %s\n", u)
	default:
		shareURLs(log, m.port)
		if cfg.announce {
			go announce(ctx, log, m, cfg, m.port)
		}
	}
	if cfg.bots > 0 {
		if _, err := bots.Start(ctx, bots.Config{Count: cfg.bots, TickRate: protocol.DefaultTickRate, Seed: cfg.seed + 1}, m.srv.Add); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// route is the WebRTC server's Route: players join on "" (Accept's route),
// spectators (POST /signal?watch=1) on server.SpectatorRoute(""), while
// the match has room for another.
func (m *match) route(r *http.Request, live func(string) int) (string, error) {
	if !r.URL.Query().Has(protocol.WatchQuery) {
		return "", nil
	}
	route := server.SpectatorRoute("")
	if live(route) >= m.srv.MaxSpectators() {
		return "", fmt.Errorf("the match takes no more spectators: %w", webrtc.ErrRouteFull)
	}
	return route, nil
}

// listen serves WebRTC signalling on cfg.addr and hands every peer to the match.
func (m *match) listen(ctx context.Context, log *slog.Logger, cfg hostConfig) error {
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	handout, err := web.Handout(cfg.relay, cfg.relaySecret, "")
	if err != nil {
		ln.Close()
		return err
	}
	stun := ""
	if cfg.invite != "" {
		stun = web.STUNFor(cfg.relay, cfg.invite)
	}
	udp, fellBack, err := udpport.Listen(cfg.udpPort)
	if err != nil {
		ln.Close()
		return err
	}
	if fellBack {
		log.Warn("UDP port taken (another host on this machine?): players' data channels use another; open that one in a firewall",
			"wanted", cfg.udpPort, "took", udpport.Port(udp))
	}
	rtc, err := webrtc.NewServer(webrtc.ServerConfig{
		Version:    protocol.Version,
		PacketConn: udp, IncludeLoopback: true, MaxSessions: cfg.maxClients + m.srv.MaxSpectators(), Logger: log,
		STUNServer: stun, Route: m.route,
	})
	if err != nil {
		udp.Close()
		ln.Close()
		return fmt.Errorf("webrtc: %w", err)
	}
	mux := http.NewServeMux()
	var relayed atomic.Pointer[json.RawMessage]
	handout.Peers = web.PublicAddrs(rtc.PublicIPs()...)
	mux.Handle("GET "+protocol.ICEServersPath, web.ICEServers(web.ICEConfig{Logger: log, Handout: handout, Relayed: relayed.Load}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	site, err := web.Load(cfg.web) // browser players open http://HOST:PORT/
	if err != nil {
		log.Info("not serving the browser client", "err", err)
	}
	web.Mount(mux, client.SignalPath, rtc, site)
	httpSrv := web.NewHTTPServer(web.SecureHeaders(mux), slog.NewLogLogger(log.Handler(), slog.LevelWarn))
	go func() {
		if err := httpSrv.Serve(web.LimitConns(ln, 0, 0)); !errors.Is(err, http.ErrServerClosed) {
			m.errc <- err
		}
	}()
	go func() { m.errc <- m.srv.Serve(ctx, rtc.Accept) }()
	go func() {
		m.errc <- m.srv.ServeSpectators(ctx, func(ctx context.Context) (transport.Conn, error) {
			return rtc.AcceptRoute(ctx, server.SpectatorRoute(""))
		})
	}()
	if cfg.invite != "" {
		go m.hostThrough(ctx, log, cfg.invite, mux, !handout.HasTURN(), handout.Peers, &relayed)
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		httpSrv.Shutdown(shutdown)
		rtc.Close()
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	m.port = port
	m.httpAddr, m.loopback = ln.Addr().String(), ln.Addr().(*net.TCPAddr).IP.IsLoopback()
	if m.loopback {
		m.status = "hosting on http://" + m.httpAddr + " (this machine only)"
	} else {
		m.status = fmt.Sprintf("hosting: others join with -join http://%s", net.JoinHostPort(lanIP(), strconv.Itoa(port)))
	}
	log.Info("hosting a LAN match", "http", ln.Addr().String(), "udp_port", rtc.LocalUDPPort(), "bots", cfg.bots)
	return nil
}

// hostThrough keeps the match reachable through the rendezvous at url:
// each invite link it gives is printed and shown in the HUD's status. When
// useRelayed (the host has no relay of its own) the rendezvous hands each
// player joining by the invite a relay credential of its own, scoped to
// the host (its connection's address and public, as STUN told it), and the
// host's own credential goes to players who reach it directly.
func (m *match) hostThrough(ctx context.Context, log *slog.Logger, url string, mux http.Handler, useRelayed bool, public []netip.Addr, relayed *atomic.Pointer[json.RawMessage]) {
	err := rendezvous.Host(ctx, rendezvous.HostConfig{URL: url, Handler: mux, Logger: log, UseRelay: useRelayed, PublicIPs: public, OnInvite: func(inv rendezvous.Invite) {
		if useRelayed && len(inv.ICEServers) > 0 {
			relayed.Store(&inv.ICEServers)
		}
		if prev := m.invite.Swap(&inv.URL); prev == nil || *prev != inv.URL {
			log.Info("invite", "url", inv.URL)
			fmt.Printf("friends anywhere join with: go run ./cmd/game -join %s (or open %s/ in a browser)\n", inv.URL, inv.URL)
		}
	}})
	if ctx.Err() == nil {
		log.Warn("hosting through the rendezvous stopped", "url", url, "err", err)
	}
}

// joinHint says how others join the match, for the HUD and the pause
// menu: the invite link once the rendezvous has given one (-invite), else
// the status (the LAN address, or why nobody else can join).
func (m *match) joinHint() string {
	if u := m.invite.Load(); u != nil {
		return "others join with the invite link " + *u + " (open it in a browser, or game -join it)"
	}
	return m.status
}

// inviteLink is the invite link the rendezvous gave (-invite), "" before
// it has given one or without -invite.
func (m *match) inviteLink() string {
	if u := m.invite.Load(); u != nil {
		return *u
	}
	return ""
}

// joinLink is the link others join the match by, for the pause menu's
// "Copy join link": the invite link once the rendezvous has given one
// (-invite), else the HTTP address players on the LAN (or, hosting on
// loopback, this machine) join at; "" while there is none.
func (m *match) joinLink() string {
	if u := m.inviteLink(); u != "" {
		return u
	}
	switch {
	case m.port == 0:
		return ""
	case m.loopback:
		return "http://" + m.httpAddr
	}
	return "http://" + net.JoinHostPort(lanIP(), strconv.Itoa(m.port))
}

// join connects the local player to the match through an in-memory pair:
// no sockets, and the same input path as everyone else.
func (m *match) join(clock func() time.Duration) transport.Conn {
	srvEnd, cliEnd, err := memory.NewPair(memory.Config{Now: clock})
	if err != nil {
		panic(err) // only a nil clock fails
	}
	m.srv.Add(srvEnd)
	return cliEnd
}

// lanIP returns this machine's first non-loopback IPv4 address, for the
// join hint ("localhost" if it has none).
func lanIP() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return "localhost"
	}
	for _, a := range addrs {
		if ip, ok := a.(*net.IPNet); ok && !ip.IP.IsLoopback() && ip.IP.To4() != nil {
			return ip.IP.String()
		}
	}
	return "localhost"
}

// shareURLs says, in the log and on stdout, the addresses players on the
// LAN join the match at.
func shareURLs(log *slog.Logger, port int) {
	urls := lan.JoinURLs(port)
	if len(urls) == 0 {
		u := fmt.Sprintf("http://localhost:%d", port)
		log.Info("no LAN interface: only this machine can join", "url", u)
		fmt.Printf("no LAN interface: on this machine, go run ./cmd/game -join %s, or open %s in a browser\n", u, u)
		return
	}
	for _, u := range urls {
		log.Info("players on your LAN can join", "url", u)
		fmt.Printf("players on your LAN: go run ./cmd/game -join %s, or open %s in a browser\n", u, u)
	}
}
