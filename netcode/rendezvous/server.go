//go:build !js

package rendezvous

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	pathpkg "path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/sightline-game/sightline/netcode/ratelimit"
	"golang.org/x/time/rate"
)

// Route is a request the rendezvous forwards to hosts: its method and
// path (under the invite's /i/CODE).
type Route struct{ Method, Path string }

// DefaultRoutes are a game server's signalling requests: the offer, the
// ICE servers, the match list and the health check.
func DefaultRoutes() []Route {
	return []Route{{"POST", "/signal"}, {"GET", "/ice"}, {"GET", "/matches"}, {"GET", "/healthz"}}
}

// The defaults of ServerConfig's zero fields.
const (
	DefaultMaxHosts       = 1024
	DefaultMaxHostsPerIP  = 4
	DefaultRequestTimeout = 15 * time.Second
	DefaultMaxInFlight    = 32
	DefaultPingInterval   = 15 * time.Second
	defaultHostRate       = 1
	defaultHostBurst      = 5
	defaultClientRate     = 5
	defaultClientBurst    = 20
	DefaultMaxBodyBytes   = 64 << 10
	maxClientKeys         = 4096
)

// ServerConfig configures a [Server]. Zero fields take the defaults.
type ServerConfig struct {
	// PublicURL is the base URL clients reach the rendezvous at (e.g.
	// "http://203.0.113.5:8090"); invite links are PublicURL/i/CODE. Empty:
	// from each host's own request (its Host header, https under TLS).
	PublicURL string
	// MaxHosts caps the hosts connected at once (default 1024).
	MaxHosts int
	// MaxHostsPerIP caps the hosts of one address, an IPv6 /64 counting as
	// one (default 4).
	MaxHostsPerIP int
	// HostRate and HostBurst limit how often one address registers a host
	// (default 1 a second, 5 at once); ClientRate and ClientBurst how often
	// one address sends requests to invites (default 5 a second, 20 at
	// once). Beyond: 429 with Retry-After.
	HostRate    rate.Limit
	HostBurst   int
	ClientRate  rate.Limit
	ClientBurst int
	// RequestTimeout is how long a host has to answer a request (default
	// 15 s); then the client gets 504.
	RequestTimeout time.Duration
	// MaxInFlight caps the requests waiting on one host (default 32);
	// beyond: 503 with Retry-After: 1.
	MaxInFlight int
	// PingInterval is how often a host is pinged; a host that does not
	// answer within it is dropped (default 15 s).
	PingInterval time.Duration
	// MaxBodyBytes caps a client's request body (default 64 KiB, at most
	// the wire's MaxBodyBytes); beyond: 413.
	MaxBodyBytes int64
	// Forward are the requests forwarded to hosts (nil: DefaultRoutes).
	// A path of Forward asked with another method gets 405.
	Forward []Route
	// Static, if set, serves the GET and HEAD requests under a live
	// invite that are not forwarded (the browser build's page and files),
	// with the path less /i/CODE.
	Static http.Handler
	// ICEServers, if set, gives each host STUN and TURN servers for its
	// players (a list of iceservers.Server as JSON) and how long their
	// credentials live, in its welcome and again before they expire: a
	// host that holds no relay secret hands these out.
	ICEServers func(id string) (json.RawMessage, time.Duration)
	// Logger receives the rendezvous's records (nil: slog.Default()).
	Logger *slog.Logger
	// ClientKey names the address a request counts against, for the
	// rate limits and MaxHostsPerIP (nil: the TCP peer's IPv4 address, or
	// the /64 of its IPv6 address). A rendezvous behind a proxy it trusts
	// may read the proxy's header here.
	ClientKey func(r *http.Request) string
}

// ServerStats counts what a Server did.
type ServerStats struct {
	Hosts           int    // connected now
	HostsTotal      uint64 // ever welcomed
	Forwarded       uint64 // requests answered by a host
	RefusedRate     uint64 // 429s, to hosts and clients
	RefusedHosts    uint64 // hosts refused for MaxHosts or MaxHostsPerIP
	RefusedNoInvite uint64 // requests for a code no host holds
	TimedOut        uint64 // 504s
	HostGone        uint64 // 502s: the host left while the request waited
	Busy            uint64 // 503s for MaxInFlight
}

// Server is a rendezvous: its ServeHTTP takes hosts at GET /host and
// clients under /i/CODE/.
type Server struct {
	cfg     ServerConfig
	log     *slog.Logger
	hostLim *ratelimit.Keyed
	cliLim  *ratelimit.Keyed

	mu      sync.Mutex
	hosts   map[string]*hostConn // by code, once upgraded
	pending int                  // hosts upgrading
	perIP   map[string]int       // hosts by address key, upgrading or not
	closed  bool

	hostsTotal, forwarded, refusedRate, refusedHosts atomic.Uint64
	refusedNoInvite, timedOut, hostGone, busy        atomic.Uint64
}

// NewServer returns a rendezvous of cfg.
func NewServer(cfg ServerConfig) *Server {
	if cfg.MaxHosts <= 0 {
		cfg.MaxHosts = DefaultMaxHosts
	}
	if cfg.MaxHostsPerIP <= 0 {
		cfg.MaxHostsPerIP = DefaultMaxHostsPerIP
	}
	if cfg.HostRate <= 0 {
		cfg.HostRate, cfg.HostBurst = defaultHostRate, max(cfg.HostBurst, defaultHostBurst)
	}
	if cfg.HostBurst <= 0 {
		cfg.HostBurst = defaultHostBurst
	}
	if cfg.ClientRate <= 0 {
		cfg.ClientRate, cfg.ClientBurst = defaultClientRate, max(cfg.ClientBurst, defaultClientBurst)
	}
	if cfg.ClientBurst <= 0 {
		cfg.ClientBurst = defaultClientBurst
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = DefaultMaxInFlight
	}
	if cfg.PingInterval <= 0 {
		cfg.PingInterval = DefaultPingInterval
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	cfg.MaxBodyBytes = min(cfg.MaxBodyBytes, MaxBodyBytes) // what a message can carry
	if cfg.Forward == nil {
		cfg.Forward = DefaultRoutes()
	}
	if cfg.ClientKey == nil {
		cfg.ClientKey = ratelimit.Subscriber
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Server{
		cfg: cfg, log: log,
		hostLim: ratelimit.New(cfg.HostRate, cfg.HostBurst, maxClientKeys),
		cliLim:  ratelimit.New(cfg.ClientRate, cfg.ClientBurst, maxClientKeys),
		hosts:   make(map[string]*hostConn),
		perIP:   make(map[string]int),
	}
}

// Stats returns the server's counters.
func (s *Server) Stats() ServerStats {
	s.mu.Lock()
	n := len(s.hosts)
	s.mu.Unlock()
	return ServerStats{
		Hosts: n, HostsTotal: s.hostsTotal.Load(), Forwarded: s.forwarded.Load(),
		RefusedRate: s.refusedRate.Load(), RefusedHosts: s.refusedHosts.Load(),
		RefusedNoInvite: s.refusedNoInvite.Load(), TimedOut: s.timedOut.Load(),
		HostGone: s.hostGone.Load(), Busy: s.busy.Load(),
	}
}

// Close drops every host (their invites die) and refuses new ones.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	hosts := make([]*hostConn, 0, len(s.hosts))
	for _, h := range s.hosts {
		hosts = append(hosts, h)
	}
	s.mu.Unlock()
	for _, h := range hosts {
		h.ws.Close(websocket.StatusGoingAway, "rendezvous closing")
	}
	return nil
}

// ServeHTTP serves GET /host (a host's WebSocket), /i/CODE/... (clients)
// and GET /healthz.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/healthz" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	case r.URL.Path == "/host":
		s.serveHost(w, r)
	case strings.HasPrefix(r.URL.Path, "/i/"):
		s.serveClient(w, r)
	default:
		http.Error(w, "not found", http.StatusNotFound)
	}
}

// limited answers 429 if key's bucket in lim is empty.
func (s *Server) limited(w http.ResponseWriter, lim *ratelimit.Keyed, key string) bool {
	ok, wait := lim.Allow(key, time.Now())
	if ok {
		return false
	}
	s.refusedRate.Add(1)
	w.Header().Set("Retry-After", ratelimit.RetryAfter(wait))
	http.Error(w, "too many requests", http.StatusTooManyRequests)
	return true
}

// newCode returns a fresh invite code: 16 random bytes in base32.
func newCode() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

// hostConn is one connected host.
type hostConn struct {
	code string
	key  string // its address's key, for MaxHostsPerIP
	ws   *websocket.Conn

	writeMu sync.Mutex

	mu      sync.Mutex
	nextID  uint64
	waiting map[uint64]chan Message
	gone    bool
}

// serveHost takes a host: checks its address's limits, upgrades to a
// WebSocket, welcomes it with a code and relays its responses until it
// leaves.
func (s *Server) serveHost(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	key := s.cfg.ClientKey(r)
	if s.limited(w, s.hostLim, key) {
		return
	}
	h := &hostConn{code: newCode(), key: key, waiting: make(map[uint64]chan Message)}
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		http.Error(w, "closing", http.StatusServiceUnavailable)
		return
	case len(s.hosts)+s.pending >= s.cfg.MaxHosts || s.perIP[key] >= s.cfg.MaxHostsPerIP:
		s.mu.Unlock()
		s.refusedHosts.Add(1)
		w.Header().Set("Retry-After", "30")
		http.Error(w, "too many hosts", http.StatusServiceUnavailable)
		return
	}
	s.pending++ // counted while it upgrades
	s.perIP[key]++
	s.mu.Unlock()
	defer s.dropHost(h)

	ws, err := websocket.Accept(w, r, nil)
	s.mu.Lock()
	s.pending--
	if err == nil {
		h.ws = ws
		s.hosts[h.code] = h // the code is live from here
	}
	s.mu.Unlock()
	if err != nil {
		s.log.Debug("rendezvous: host upgrade", "remote", r.RemoteAddr, "err", err)
		return
	}
	ws.SetReadLimit(MaxMessageBytes)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()

	base := s.cfg.PublicURL
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	welcome := Message{Type: TypeWelcome, Code: h.code, URL: base + "/i/" + h.code}
	var refresh <-chan time.Time
	if s.cfg.ICEServers != nil {
		list, ttl := s.cfg.ICEServers(h.code[:8])
		welcome.ICEServers, welcome.TTL = list, int(ttl/time.Second)
		if ttl > 2*time.Second {
			t := time.NewTicker(ttl / 2)
			defer t.Stop()
			refresh = t.C
		}
	}
	if err := h.send(ctx, welcome); err != nil {
		return
	}
	s.hostsTotal.Add(1)
	s.log.Info("rendezvous: host connected", "remote", r.RemoteAddr, "invite", welcome.URL)

	msgs := make(chan Message)
	readerDone := make(chan struct{})
	defer func() { <-readerDone }() // after cancel and Close below
	go func() {
		defer close(readerDone)
		defer cancel()
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return
			}
			m, err := ParseMessage(data)
			if err != nil || m.Type != TypeResponse {
				s.log.Debug("rendezvous: host sent a bad message", "remote", r.RemoteAddr, "err", err, "type", m.Type)
				ws.Close(websocket.StatusPolicyViolation, "bad message")
				return
			}
			select {
			case msgs <- m:
			case <-ctx.Done():
				return
			}
		}
	}()
	ping := time.NewTicker(s.cfg.PingInterval)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			ws.Close(websocket.StatusNormalClosure, "")
			s.log.Info("rendezvous: host left", "remote", r.RemoteAddr, "code", h.code[:8]+"…")
			return
		case m := <-msgs:
			h.deliver(m)
		case <-ping.C:
			pctx, pcancel := context.WithTimeout(ctx, s.cfg.PingInterval)
			err := ws.Ping(pctx)
			pcancel()
			if err != nil {
				cancel()
			}
		case <-refresh:
			list, ttl := s.cfg.ICEServers(h.code[:8])
			if err := h.send(ctx, Message{Type: TypeICE, ICEServers: list, TTL: int(ttl / time.Second)}); err != nil {
				cancel()
			}
		}
	}
}

// dropHost forgets h: its code dies and its waiting clients get 502.
func (s *Server) dropHost(h *hostConn) {
	s.mu.Lock()
	if s.hosts[h.code] == h {
		delete(s.hosts, h.code)
	}
	if s.perIP[h.key]--; s.perIP[h.key] <= 0 {
		delete(s.perIP, h.key)
	}
	s.mu.Unlock()
	h.mu.Lock()
	h.gone = true
	for id, ch := range h.waiting {
		close(ch)
		delete(h.waiting, id)
	}
	h.mu.Unlock()
}

// send writes m to the host.
func (h *hostConn) send(ctx context.Context, m Message) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	h.writeMu.Lock()
	defer h.writeMu.Unlock()
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return h.ws.Write(wctx, websocket.MessageText, data)
}

// deliver hands a response to the request waiting for it, if any.
func (h *hostConn) deliver(m Message) {
	h.mu.Lock()
	ch, ok := h.waiting[m.ID]
	delete(h.waiting, m.ID)
	h.mu.Unlock()
	if ok {
		ch <- m // buffered
	}
}

// serveClient forwards a client's request under /i/CODE to its host.
func (s *Server) serveClient(w http.ResponseWriter, r *http.Request) {
	if s.limited(w, s.cliLim, s.cfg.ClientKey(r)) {
		return
	}
	rest := strings.TrimPrefix(r.URL.Path, "/i/")
	code, path, hasPath := strings.Cut(rest, "/")
	path = "/" + path
	s.mu.Lock()
	h := s.hosts[code]
	s.mu.Unlock()
	if h == nil {
		s.refusedNoInvite.Add(1)
		http.Error(w, "no such invite (it ends when its host leaves)", http.StatusNotFound)
		return
	}
	if !hasPath { // /i/CODE: the page's relative links need the slash
		http.Redirect(w, r, "/i/"+code+"/", http.StatusPermanentRedirect)
		return
	}
	var allow []string // the methods Forward has for path
	for _, rt := range s.cfg.Forward {
		if rt.Path != path {
			continue
		}
		allow = append(allow, rt.Method)
		if rt.Method == r.Method || (rt.Method == http.MethodGet && r.Method == http.MethodHead) {
			s.forward(w, r, h, path)
			return
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if s.cfg.Static != nil && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		r2 := r.Clone(r.Context())
		r2.URL.Path, r2.URL.RawPath = cleanPath(path), ""
		s.cfg.Static.ServeHTTP(w, r2)
		return
	}
	http.Error(w, "not found", http.StatusNotFound)
}

// cleanPath is p with its dot segments resolved inside the invite (so
// that /i/CODE/../x names nothing outside), keeping a final slash.
func cleanPath(p string) string {
	c := pathpkg.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// forwardedRequestHeaders and forwardedResponseHeaders are the headers
// that cross the rendezvous.
var (
	forwardedRequestHeaders  = []string{"Authorization", "Content-Type", "Accept", "User-Agent"}
	forwardedResponseHeaders = []string{"Content-Type", "Retry-After", "Cache-Control", "Allow"}
)

// forward sends r to host h as a request message and writes its answer.
func (s *Server) forward(w http.ResponseWriter, r *http.Request, h *hostConn, path string) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	m := Message{Type: TypeRequest, Method: r.Method, Path: path, Query: r.URL.RawQuery, Remote: r.RemoteAddr, Body: body}
	if len(m.Query) > MaxQueryBytes {
		http.Error(w, "query too long", http.StatusRequestURITooLong)
		return
	}
	for _, k := range forwardedRequestHeaders {
		if v := r.Header.Values(k); len(v) > 0 {
			if m.Header == nil {
				m.Header = map[string][]string{}
			}
			m.Header[k] = v
		}
	}
	if m.check() != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	ch := make(chan Message, 1)
	h.mu.Lock()
	if h.gone {
		h.mu.Unlock()
		s.hostGone.Add(1)
		http.Error(w, "host went away", http.StatusBadGateway)
		return
	}
	if len(h.waiting) >= s.cfg.MaxInFlight {
		h.mu.Unlock()
		s.busy.Add(1)
		w.Header().Set("Retry-After", "1")
		http.Error(w, "host busy", http.StatusServiceUnavailable)
		return
	}
	h.nextID++
	m.ID = h.nextID
	h.waiting[m.ID] = ch
	h.mu.Unlock()
	forget := func() {
		h.mu.Lock()
		delete(h.waiting, m.ID)
		h.mu.Unlock()
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
	defer cancel()
	if err := h.send(ctx, m); err != nil {
		forget()
		s.hostGone.Add(1)
		http.Error(w, "host went away", http.StatusBadGateway)
		return
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			s.hostGone.Add(1)
			http.Error(w, "host went away", http.StatusBadGateway)
			return
		}
		s.forwarded.Add(1)
		for _, k := range forwardedResponseHeaders {
			for _, v := range resp.Header[k] {
				w.Header().Add(k, v)
			}
		}
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Length", strconv.Itoa(len(resp.Body)))
		w.WriteHeader(resp.Status)
		if r.Method != http.MethodHead {
			w.Write(resp.Body)
		}
	case <-ctx.Done():
		forget()
		if r.Context().Err() != nil {
			return // the client left
		}
		s.timedOut.Add(1)
		http.Error(w, "the host did not answer in time", http.StatusGatewayTimeout)
	}
}
