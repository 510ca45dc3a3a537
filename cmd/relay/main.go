// Command relay runs Sightline's TURN relay (package netcode/relay): players
// whose networks block a direct path to a game server reach it through a
// relayed address here, with a credential the game server handed them
// (GET /ice) under the secret the relay and the game servers share.
//
//	relay -secret FILE -public-ip IP [-addr :3478] [-tls-addr :5349 -tls-cert FILE -tls-key FILE]
//	      [-relay-bind IP] [-allow-peers CIDR,...] [-max-allocations N] [-max-bytes N]
//	      [-max-allocations-per-address N] [-max-allocations-total N] [-max-permissions N]
//	      [-max-channels N] [-rate BYTES] [-burst BYTES]
//	      [-max-conns N] [-max-conns-per-addr N] [-idle-timeout D] [-unknown-rate R] [-unknown-rate-per-addr R]
//	      [-metrics-addr 127.0.0.1:9478] [-http ADDR [-public-url URL] [-web DIR]] [-log-level info]
//	relay -new-secret FILE
//
// It listens for clients on -addr over UDP and TCP and, with -tls-addr, over
// TLS. /metrics (Prometheus) and /healthz are served on -metrics-addr;
// sightline_relay_refused_total counts, by reason, what the relay refused:
// credentials, peers and quotas, and connections and datagrams its
// listeners turned away (tcp-per-address, tcp-total, idle-timeout,
// oversize-frame, bad-frame, udp-unknown-rate, udp-queue-full).
// With -http it also serves the rendezvous (package netcode/rendezvous): a
// game server behind NAT run with -invite http://RELAY:PORT keeps a
// connection there and gets an invite link players join through, and the
// host's players get this relay's TURN URLs with fresh credentials.
// -new-secret writes a new random secret (64 hex digits, mode 0600) to FILE
// for the relay and the game servers to share, and refuses to overwrite one.
package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sightline-game/sightline/game/web"
	"github.com/sightline-game/sightline/netcode/iceservers"
	"github.com/sightline-game/sightline/netcode/relay"
	"github.com/sightline-game/sightline/netcode/rendezvous"
	"github.com/sightline-game/sightline/wasm/page"
)

// options are the relay's flags, parsed.
type options struct {
	addr, tlsAddr   string
	tlsCert, tlsKey string
	secretFile      string
	publicIP        netip.Addr
	relayBind       netip.Addr
	allowPeers      []netip.Prefix
	maxAllocations  int
	maxBytes        int64
	// caps holds the relay's caps beyond the per-credential ones (0:
	// the relay's defaults).
	caps        relay.Config
	metricsAddr string
	httpAddr    string

	// The listeners' bounds (relay.Config's fields of the same names).
	maxConns, maxConnsPerAddr       int
	idleTimeout                     time.Duration
	unknownRate, unknownRatePerAddr float64

	// publicURL is the rendezvous's address in invite links (-public-url);
	// webDir the browser build served under them (-web); tlsName the name
	// in the relay's certificate, for turns: URLs (-tls-name).
	publicURL, webDir, tlsName string
	logger                     *slog.Logger
	// ready, if set, receives the running relay and the HTTP listeners'
	// addresses (tests).
	ready func(s *relay.Server, metrics, http net.Addr)
}

func main() {
	var o options
	flag.StringVar(&o.addr, "addr", ":3478", "where to listen for clients over UDP and TCP")
	flag.StringVar(&o.tlsAddr, "tls-addr", "", "where to listen for clients over TLS (turns:); needs -tls-cert and -tls-key")
	flag.StringVar(&o.tlsCert, "tls-cert", "", "the TLS certificate (PEM)")
	flag.StringVar(&o.tlsKey, "tls-key", "", "the TLS certificate's key (PEM)")
	flag.StringVar(&o.secretFile, "secret", "", "the file holding the secret shared with the game servers (64 hex digits); required")
	newSecret := flag.String("new-secret", "", "write a new random secret to this file (mode 0600, not overwriting) and exit")
	publicIP := flag.String("public-ip", "", "the relayed addresses' IP as told to clients; default: -relay-bind")
	relayBind := flag.String("relay-bind", "", "the IP relay sockets bind to; default: 0.0.0.0")
	allowPeers := flag.String("allow-peers", "", "comma-separated CIDRs clients may relay to although they are private or special (a game server's private network)")
	flag.IntVar(&o.maxAllocations, "max-allocations", relay.DefaultMaxAllocationsPerUser, "allocations one credential may hold at once")
	flag.Int64Var(&o.maxBytes, "max-bytes", relay.DefaultMaxBytesPerUser, "bytes one credential's allocations may relay, both directions")
	flag.IntVar(&o.caps.MaxAllocationsPerAddress, "max-allocations-per-address", relay.DefaultMaxAllocationsPerAddress, "allocations clients at one address (IPv6: one /64) may hold at once")
	flag.IntVar(&o.caps.MaxAllocations, "max-allocations-total", relay.DefaultMaxAllocations, "allocations the relay holds at once")
	flag.IntVar(&o.caps.MaxPermissionsPerAllocation, "max-permissions", relay.DefaultMaxPermissionsPerAllocation, "peer IPs one allocation may hold permissions for")
	flag.IntVar(&o.caps.MaxChannelsPerAllocation, "max-channels", relay.DefaultMaxChannelsPerAllocation, "channels one allocation may bind")
	flag.Int64Var(&o.caps.RateBytesPerSecond, "rate", relay.DefaultRateBytesPerSecond, "bytes a second one allocation relays in each direction, sustained (a relayed player needs about 9 kB/s; a host's allocation carries all its relayed players)")
	flag.Int64Var(&o.caps.RateBurstBytes, "burst", relay.DefaultRateBurstBytes, "bytes one allocation may relay at once beyond -rate after a quiet while")
	flag.IntVar(&o.maxConns, "max-conns", relay.DefaultMaxConns, "TCP and TLS client connections the relay holds at once; more are closed as they come")
	flag.IntVar(&o.maxConnsPerAddr, "max-conns-per-addr", relay.DefaultMaxConnsPerAddr, "TCP and TLS connections one client (an IPv4 address, an IPv6 /64) may hold at once")
	flag.DurationVar(&o.idleTimeout, "idle-timeout", relay.DefaultIdleTimeout, "close a TCP or TLS connection that completes no TURN message for this long")
	flag.Float64Var(&o.unknownRate, "unknown-rate", relay.DefaultUnknownRate, "UDP datagrams a second taken from sources the relay has not admitted, in all; more are dropped unanswered")
	flag.Float64Var(&o.unknownRatePerAddr, "unknown-rate-per-addr", relay.DefaultUnknownRatePerAddr, "UDP datagrams a second taken from each client the relay has not admitted")
	flag.StringVar(&o.metricsAddr, "metrics-addr", "127.0.0.1:9478", "where to serve /metrics and /healthz; empty: nowhere")
	flag.StringVar(&o.httpAddr, "http", "", "where to serve the rendezvous: invite links for hosts behind NAT (cmd/server -invite), and /healthz; empty: nowhere")
	flag.StringVar(&o.publicURL, "public-url", "", "with -http: the rendezvous's URL in invite links (default: from each host's request, http://HOST:PORT)")
	flag.StringVar(&o.webDir, "web", "out/web", "with -http: the browser build (made by make web) served at each invite link, so that it plays in a browser")
	flag.StringVar(&o.tlsName, "tls-name", "", "with -tls-addr: the relay's name in its certificate, for the turns: URLs handed to hosts")
	level := flag.String("log-level", "info", "debug, info, warn or error")
	flag.Parse()

	if *newSecret != "" {
		if err := writeNewSecret(*newSecret); err != nil {
			fmt.Fprintln(os.Stderr, "relay:", err)
			os.Exit(1)
		}
		return
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintln(os.Stderr, "relay: -log-level:", err)
		os.Exit(2)
	}
	var err error
	if o.publicIP, err = parseIP("-public-ip", *publicIP); err == nil {
		if o.relayBind, err = parseIP("-relay-bind", *relayBind); err == nil {
			o.allowPeers, err = parseAllowPeers(*allowPeers)
		}
	}
	if err == nil {
		err = o.validate()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		os.Exit(2)
	}
	o.logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lv}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		o.logger.Error("relay stopped", "err", err)
		os.Exit(1)
	}
}

// parseIP reads an optional IP flag; empty is the zero Addr.
func parseIP(flagName, text string) (netip.Addr, error) {
	if text == "" {
		return netip.Addr{}, nil
	}
	ip, err := netip.ParseAddr(text)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("%s: %w", flagName, err)
	}
	return ip.Unmap(), nil
}

// parseAllowPeers reads -allow-peers: comma-separated CIDRs (a bare IP is
// its /32 or /128).
func parseAllowPeers(text string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range strings.Split(text, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if !strings.Contains(item, "/") {
			ip, err := netip.ParseAddr(item)
			if err != nil {
				return nil, fmt.Errorf("-allow-peers %q: %w", item, err)
			}
			out = append(out, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(item)
		if err != nil {
			return nil, fmt.Errorf("-allow-peers %q: %w", item, err)
		}
		if p != p.Masked() {
			return nil, fmt.Errorf("-allow-peers %q: host bits set (did you mean %s?)", item, p.Masked())
		}
		out = append(out, p)
	}
	return out, nil
}

// validate checks the options that do not need the network.
func (o options) validate() error {
	switch {
	case o.secretFile == "":
		return errors.New("-secret is required (make one with -new-secret FILE)")
	case o.addr == "" && o.tlsAddr == "":
		return errors.New("-addr or -tls-addr is required")
	case o.tlsAddr != "" && (o.tlsCert == "" || o.tlsKey == ""):
		return errors.New("-tls-addr needs -tls-cert and -tls-key")
	case o.tlsAddr == "" && (o.tlsCert != "" || o.tlsKey != ""):
		return errors.New("-tls-cert and -tls-key need -tls-addr")
	case o.maxAllocations < 1:
		return fmt.Errorf("-max-allocations %d: must be at least 1", o.maxAllocations)
	case o.maxBytes < 1:
		return fmt.Errorf("-max-bytes %d: must be at least 1", o.maxBytes)
	case o.caps.MaxAllocationsPerAddress < 0 || o.caps.MaxAllocations < 0 || o.caps.MaxPermissionsPerAllocation < 0 ||
		o.caps.MaxChannelsPerAllocation < 0 || o.caps.RateBytesPerSecond < 0 || o.caps.RateBurstBytes < 0:
		return errors.New("-max-allocations-per-address, -max-allocations-total, -max-permissions, -max-channels, -rate and -burst: must not be negative (0: the default)")
	case o.maxConns < 0 || o.maxConnsPerAddr < 0 || o.idleTimeout < 0 || o.unknownRate < 0 || o.unknownRatePerAddr < 0:
		return errors.New("-max-conns, -max-conns-per-addr, -idle-timeout, -unknown-rate and -unknown-rate-per-addr must not be negative (0: the default)")
	case !o.publicIP.IsValid() && (!o.relayBind.IsValid() || o.relayBind.IsUnspecified()):
		return errors.New("-public-ip is required unless -relay-bind is a specific address")
	case o.publicIP.IsValid() && o.publicIP.IsUnspecified():
		return fmt.Errorf("-public-ip %s: must be a specific address", o.publicIP)
	}
	return nil
}

// writeNewSecret writes a fresh secret to path with mode 0600; it refuses
// to replace an existing file.
func writeNewSecret(path string) error {
	s, err := iceservers.NewSecret()
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("-new-secret: %w", err)
	}
	if _, err := io.WriteString(f, s.String()+"\n"); err != nil {
		f.Close()
		return fmt.Errorf("-new-secret %s: %w", path, err)
	}
	return f.Close()
}

// run runs the relay until ctx is done.
func run(ctx context.Context, o options) error {
	log := o.logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	secret, err := iceservers.LoadSecret(o.secretFile)
	if err != nil {
		return err
	}
	cfg := relay.Config{
		Addr:                  o.addr,
		TLSAddr:               o.tlsAddr,
		Secret:                secret,
		PublicIP:              o.publicIP,
		RelayBind:             o.relayBind,
		AllowPeers:            o.allowPeers,
		MaxAllocationsPerUser: o.maxAllocations,
		MaxBytesPerUser:       o.maxBytes,
		MaxConns:              o.maxConns,
		MaxConnsPerAddr:       o.maxConnsPerAddr,
		IdleTimeout:           o.idleTimeout,
		UnknownRate:           o.unknownRate,
		UnknownRatePerAddr:    o.unknownRatePerAddr,
		Logger:                log,

		MaxAllocationsPerAddress:    o.caps.MaxAllocationsPerAddress,
		MaxAllocations:              o.caps.MaxAllocations,
		MaxPermissionsPerAllocation: o.caps.MaxPermissionsPerAllocation,
		MaxChannelsPerAllocation:    o.caps.MaxChannelsPerAllocation,
		RateBytesPerSecond:          o.caps.RateBytesPerSecond,
		RateBurstBytes:              o.caps.RateBurstBytes,
	}
	if o.tlsAddr != "" {
		pair, err := tls.LoadX509KeyPair(o.tlsCert, o.tlsKey)
		if err != nil {
			return fmt.Errorf("-tls-cert/-tls-key: %w", err)
		}
		cfg.TLSConfig = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	}
	srv, err := relay.New(cfg)
	if err != nil {
		return err
	}
	defer srv.Close()

	var servers []*http.Server
	serve := func(name, addr string, h http.Handler) (net.Addr, error) {
		if addr == "" {
			return nil, nil
		}
		l, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("-%s: %w", name, err)
		}
		hs := web.NewHTTPServer(h, slog.NewLogLogger(log.Handler(), slog.LevelWarn))
		servers = append(servers, hs)
		go func() {
			if err := hs.Serve(web.LimitConns(l, 0, 0)); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("relay HTTP", "addr", addr, "err", err)
			}
		}()
		return l.Addr(), nil
	}
	defer func() {
		for _, hs := range servers {
			hs.Close()
		}
	}()

	reg := prometheus.NewRegistry()
	if err := reg.Register(srv.Collector()); err != nil {
		return err
	}
	metricsMux := http.NewServeMux()
	metricsMux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	metricsMux.HandleFunc("GET /healthz", healthz)
	metricsAddr, err := serve("metrics-addr", o.metricsAddr, metricsMux)
	if err != nil {
		return err
	}
	var publicMux http.Handler
	if o.httpAddr != "" {
		rv, err := o.rendezvous(log, secret, srv)
		if err != nil {
			return err
		}
		defer rv.Close()
		publicMux = web.SecureHeaders(rv)
	}
	httpAddr, err := serve("http", o.httpAddr, publicMux)
	if err != nil {
		return err
	}

	log.Info("relay listening", "udp", srv.Addr(), "tcp", srv.TCPAddr(), "tls", srv.TLSAddr(),
		"public_ip", o.publicIP, "metrics", metricsAddr, "http", httpAddr)
	if o.ready != nil {
		o.ready(srv, metricsAddr, httpAddr)
	}
	<-ctx.Done()
	st := srv.Stats()
	log.Info("relay stopping", "allocations", st.Allocations, "allocations_total", st.AllocationsTotal, "bytes_relayed", st.BytesRelayed,
		"refused", st.Refused(),
		"refused_tcp_per_address", st.RefusedTCPPerAddr, "refused_tcp_total", st.RefusedTCPTotal, "closed_idle", st.ClosedIdle,
		"closed_oversize", st.ClosedOversize, "dropped_udp_unknown", st.DroppedUDPUnknown)
	return nil
}

// rendezvous is the relay's public HTTP service on -http: invite links for
// hosts behind NAT (package rendezvous), each host handed this relay's
// TURN URLs with a credential scoped to its address and, if it asks, each
// of its players one of their own (GET LINK/ice, scoped to the host), and
// the browser build (-web) under each live invite so that the link plays
// in a browser, under a strict Content-Security-Policy and a byte rate
// per client address.
func (o options) rendezvous(log *slog.Logger, secret iceservers.Secret, srv *relay.Server) (*rendezvous.Server, error) {
	cfg := rendezvous.ServerConfig{PublicURL: o.publicURL, Logger: log}
	if o.publicIP.IsValid() {
		var urls []string
		if a, ok := srv.Addr().(*net.UDPAddr); ok {
			hp := net.JoinHostPort(o.publicIP.String(), strconv.Itoa(a.Port))
			urls = append(urls, "turn:"+hp, "turn:"+hp+"?transport=tcp")
		}
		if a, ok := srv.TLSAddr().(*net.TCPAddr); ok && o.tlsName != "" {
			urls = append(urls, "turns:"+net.JoinHostPort(o.tlsName, strconv.Itoa(a.Port)))
		}
		cfg.ICEServers = func(id string, peers []netip.Addr) (json.RawMessage, time.Duration) {
			handout := iceservers.Handout{URLs: urls, Secret: secret, Peers: peers, Window: web.DefaultICEWindow}
			list := handout.List(id, time.Now())
			body, _ := json.Marshal(list.ICEServers)
			return body, time.Duration(list.TTL) * time.Second
		}
	}
	if o.webDir != "" {
		site, err := web.Load(o.webDir)
		if err != nil {
			log.Warn("no browser build for invite links", "dir", o.webDir, "err", err)
		} else {
			cfg.Static = site
			cfg.StaticPolicy = web.PagePolicy(page.Index)
			// A client pulls the page and the compressed game at once;
			// beyond, at StaticRate.
			if sz, ok := site.Sizes("/" + web.WasmFile); ok {
				cfg.StaticBurst = max(sz.Brotli, sz.Gzip) + 256<<10
			}
		}
	}
	return rendezvous.NewServer(cfg), nil
}

func healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, "ok\n")
}
