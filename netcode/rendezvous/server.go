//go:build !js

package rendezvous

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/netip"
	pathpkg "path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/sightline-game/sightline/netcode/iceservers"
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
	DefaultMaxHosts      = 1024
	DefaultMaxHostsPerIP = 4
	// DefaultMaxHostsPerBlock caps the hosts of one network block: an
	// IPv4 /24 or an IPv6 /56 (what one customer of a provider may hold).
	DefaultMaxHostsPerBlock = 16
	// DefaultICERate and DefaultICEBurst limit the GET LINK/ice the
	// rendezvous answers itself, per client address: a second apart,
	// eight at once (a household joining together).
	DefaultICERate  rate.Limit = 1
	DefaultICEBurst            = 8
	// DefaultStaticRate and DefaultStaticBurst limit the bytes of the
	// browser build one client address pulls: 2 MB a second beyond a
	// burst that holds the page, wasm_exec.js and the compressed game.
	DefaultStaticRate  rate.Limit = 2e6
	DefaultStaticBurst            = 4 << 20
	// DefaultStaticPolicy is the Content-Security-Policy of the browser
	// build's answers (a page that runs inline scripts needs their
	// hashes in script-src: game/web.PagePolicy).
	DefaultStaticPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
	// forwardedPolicy is the Content-Security-Policy of a host's answers:
	// signalling data, never a document that runs anything.
	forwardedPolicy = "default-src 'none'; sandbox"
	// maxStaticChunk is the most bytes of the build written between two
	// waits on the byte limit.
	maxStaticChunk = 32 << 10
	// abandonedPerInFlight times MaxInFlight caps the requests a host was
	// sent but the rendezvous stopped waiting for (timed out, or their
	// client left); a host that leaves more unanswered is dropped.
	abandonedPerInFlight  = 4
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
	// MaxHostsPerBlock caps the hosts of one network block, an IPv4 /24
	// or an IPv6 /56, so that the addresses of one customer cannot hold
	// every slot (default 16). A ClientKey that names no address counts
	// as a block of its own.
	MaxHostsPerBlock int
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
	// PingInterval is how often a host is pinged (default 15 s).
	PingInterval time.Duration
	// PongTimeout is how long a host has to answer a ping; then it is
	// dropped (default PingInterval). The next ping waits for the answer.
	PongTimeout time.Duration
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
	// StaticPolicy is the Content-Security-Policy of Static's answers
	// (default DefaultStaticPolicy).
	StaticPolicy string
	// StaticRate and StaticBurst limit the bytes Static sends one client
	// address, a second and at once (defaults DefaultStaticRate and
	// DefaultStaticBurst): an address pulling the build again and again
	// gets it at StaticRate.
	StaticRate  rate.Limit
	StaticBurst int
	// ICEServers, if set, mints STUN and TURN servers (a list of
	// iceservers.Server as JSON) with a credential for id scoped to peers
	// (iceservers.Handout.Peers), and says how long it lives. Each host
	// gets one of its own, scoped to its address, in its welcome and again
	// before it expires; a host that asks (a relay message) has its
	// players' GET LINK/ice answered here, one credential per player's
	// connection, scoped to the host. An id tells nothing of the invite.
	ICEServers func(id string, peers []netip.Addr) (json.RawMessage, time.Duration)
	// ICERate and ICEBurst limit the GET LINK/ice answered here, per
	// client address (defaults DefaultICERate and DefaultICEBurst);
	// beyond: 429 with Retry-After.
	ICERate  rate.Limit
	ICEBurst int
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
	RefusedHosts    uint64 // hosts refused for MaxHosts, MaxHostsPerIP or MaxHostsPerBlock
	RefusedNoInvite uint64 // requests for a code no host holds
	TimedOut        uint64 // 504s
	HostGone        uint64 // 502s: the host left while the request waited
	Busy            uint64 // 503s for MaxInFlight
	ICEServed       uint64 // GET LINK/ice answered by the rendezvous
	Unsolicited     uint64 // hosts dropped for a response no request waited for
	Pongs           uint64 // pings the hosts answered
	NoPong          uint64 // hosts dropped for not answering a ping within PongTimeout
}

// Server is a rendezvous: its ServeHTTP takes hosts at GET /host and
// clients under /i/CODE/.
type Server struct {
	cfg     ServerConfig
	log     *slog.Logger
	hostLim *ratelimit.Keyed
	cliLim  *ratelimit.Keyed
	iceLim  *ratelimit.Keyed
	byteLim *ratelimit.Keyed
	// idKey derives the players' credential ids (HMAC): random, so that
	// an id tells nothing of the invite or the address it was made for.
	idKey [32]byte

	mu       sync.Mutex
	hosts    map[string]*hostConn // by code, once upgraded
	pending  int                  // hosts upgrading
	perIP    map[string]int       // hosts by address key, upgrading or not
	perBlock map[string]int       // hosts by network block, upgrading or not
	closed   bool

	hostsTotal, forwarded, refusedRate, refusedHosts atomic.Uint64
	refusedNoInvite, timedOut, hostGone, busy        atomic.Uint64
	iceServed, unsolicited, pongs, noPong            atomic.Uint64
}

// NewServer returns a rendezvous of cfg.
func NewServer(cfg ServerConfig) *Server {
	if cfg.MaxHosts <= 0 {
		cfg.MaxHosts = DefaultMaxHosts
	}
	if cfg.MaxHostsPerIP <= 0 {
		cfg.MaxHostsPerIP = DefaultMaxHostsPerIP
	}
	if cfg.MaxHostsPerBlock <= 0 {
		cfg.MaxHostsPerBlock = DefaultMaxHostsPerBlock
	}
	if cfg.ICERate <= 0 {
		cfg.ICERate = DefaultICERate
	}
	if cfg.ICEBurst <= 0 {
		cfg.ICEBurst = DefaultICEBurst
	}
	if cfg.StaticRate <= 0 {
		cfg.StaticRate = DefaultStaticRate
	}
	if cfg.StaticBurst <= 0 {
		cfg.StaticBurst = DefaultStaticBurst
	}
	if cfg.StaticPolicy == "" {
		cfg.StaticPolicy = DefaultStaticPolicy
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
	if cfg.PongTimeout <= 0 {
		cfg.PongTimeout = cfg.PingInterval
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
	s := &Server{
		cfg: cfg, log: log,
		hostLim:  ratelimit.New(cfg.HostRate, cfg.HostBurst, maxClientKeys),
		cliLim:   ratelimit.New(cfg.ClientRate, cfg.ClientBurst, maxClientKeys),
		iceLim:   ratelimit.New(cfg.ICERate, cfg.ICEBurst, maxClientKeys),
		byteLim:  ratelimit.New(cfg.StaticRate, cfg.StaticBurst, maxClientKeys),
		hosts:    make(map[string]*hostConn),
		perIP:    make(map[string]int),
		perBlock: make(map[string]int),
	}
	_, _ = rand.Read(s.idKey[:])
	return s
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
		ICEServed: s.iceServed.Load(), Unsolicited: s.unsolicited.Load(),
		Pongs: s.pongs.Load(), NoPong: s.noPong.Load(),
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
	code  string
	id    string     // random, in its credential and the logs (never the code)
	key   string     // its address's key, for MaxHostsPerIP
	block string     // its network block, for MaxHostsPerBlock
	addr  netip.Addr // its connection's address (none if unknown)
	ws    *websocket.Conn

	writeMu sync.Mutex

	mu        sync.Mutex
	nextID    uint64
	waiting   map[uint64]chan Message
	abandoned map[uint64]struct{} // sent, no longer waited for
	// maxAbandoned caps abandoned: beyond, the host is dropped.
	maxAbandoned int
	gone         bool
	// relay is set by the host's relay message: its players' GET
	// LINK/ice is answered by the rendezvous, their credentials scoped to
	// peers.
	relay bool
	peers []netip.Addr
}

// blockOf is the network block of an address key: the /24 of an IPv4
// address, the /56 of an IPv6 address or /64; a key that names no address
// is its own block.
func blockOf(key string) string {
	a, err := netip.ParseAddr(key)
	if err != nil {
		p, perr := netip.ParsePrefix(key)
		if perr != nil {
			return key
		}
		a = p.Addr()
	}
	return sameBlock(a.Unmap()).String()
}

// sameBlock is the block an address's owner likely holds whole: its /24
// (IPv4) or /56 (IPv6).
func sameBlock(a netip.Addr) netip.Prefix {
	bits := 56
	if a.Is4() {
		bits = 24
	}
	p, _ := a.Prefix(bits)
	return p
}

// remoteAddr is the IP of a request's TCP peer, unmapped.
func remoteAddr(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap().WithZone("")
}

// randomID returns 8 random bytes in hex.
func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
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
	h := &hostConn{code: newCode(), id: randomID(), key: key, block: blockOf(key), addr: remoteAddr(r),
		waiting: make(map[uint64]chan Message), abandoned: make(map[uint64]struct{}), maxAbandoned: abandonedPerInFlight * s.cfg.MaxInFlight}
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		http.Error(w, "closing", http.StatusServiceUnavailable)
		return
	case len(s.hosts)+s.pending >= s.cfg.MaxHosts || s.perIP[key] >= s.cfg.MaxHostsPerIP || s.perBlock[h.block] >= s.cfg.MaxHostsPerBlock:
		s.mu.Unlock()
		s.refusedHosts.Add(1)
		w.Header().Set("Retry-After", "30")
		http.Error(w, "too many hosts", http.StatusServiceUnavailable)
		return
	}
	s.pending++ // counted while it upgrades
	s.perIP[key]++
	s.perBlock[h.block]++
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
		list, ttl := s.cfg.ICEServers(h.hostCredentialID(), h.ownScope())
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
	s.log.Info("rendezvous: host connected", "remote", r.RemoteAddr, "host", h.id)

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
			if err != nil || (m.Type != TypeResponse && m.Type != TypeRelay) {
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
	// The pings run apart from the loop below: a pong is read after the
	// host's messages before it, which the reader hands to that loop, so a
	// loop waiting on its own ping would never read the pong behind an
	// answer the host sent at the same moment (and would drop a host busy
	// answering).
	pinger := make(chan struct{})
	defer func() { <-pinger }() // after cancel below
	go func() {
		defer close(pinger)
		ping := time.NewTicker(s.cfg.PingInterval)
		defer ping.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ping.C:
				pctx, pcancel := context.WithTimeout(ctx, s.cfg.PongTimeout)
				err := ws.Ping(pctx)
				pcancel()
				if err != nil {
					if ctx.Err() == nil {
						s.noPong.Add(1)
						s.log.Debug("rendezvous: host did not answer a ping", "remote", r.RemoteAddr, "host", h.id, "err", err)
					}
					cancel()
					return
				}
				s.pongs.Add(1)
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			ws.Close(websocket.StatusNormalClosure, "")
			s.log.Info("rendezvous: host left", "remote", r.RemoteAddr, "host", h.id)
			return
		case m := <-msgs:
			if m.Type == TypeRelay {
				h.askRelay(m.Addrs)
				continue
			}
			if err := h.deliver(m); err != nil {
				s.unsolicited.Add(1)
				s.log.Debug("rendezvous: host dropped", "remote", r.RemoteAddr, "host", h.id, "err", err)
				ws.Close(websocket.StatusPolicyViolation, "unsolicited response")
				cancel()
			}
		case <-refresh:
			list, ttl := s.cfg.ICEServers(h.hostCredentialID(), h.ownScope())
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
	if s.perBlock[h.block]--; s.perBlock[h.block] <= 0 {
		delete(s.perBlock, h.block)
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

// hostCredentialID is the id of the host's own relay credential.
func (h *hostConn) hostCredentialID() string { return "h" + h.id }

// ownScope is the scope of the host's own credential: its address.
func (h *hostConn) ownScope() []netip.Addr {
	if !h.addr.IsValid() {
		return nil
	}
	return []netip.Addr{h.addr}
}

// askRelay takes a host's relay message: its players' GET LINK/ice is
// answered here from now on, scoped to its connection's address and to
// those of addrs in the same block (a host could otherwise aim its
// players' credentials at anyone).
func (h *hostConn) askRelay(addrs []string) {
	peers := h.ownScope()
	for _, text := range addrs {
		a, err := netip.ParseAddr(text)
		if err != nil || !h.addr.IsValid() {
			continue
		}
		a = a.Unmap()
		if sameBlock(h.addr).Contains(a) && !slices.Contains(peers, a) && len(peers) < iceservers.MaxPeers {
			peers = append(peers, a)
		}
	}
	h.mu.Lock()
	h.relay, h.peers = true, peers
	h.mu.Unlock()
}

// relayScope reports whether the host asked the rendezvous to answer its
// players' GET LINK/ice, and the scope of their credentials.
func (h *hostConn) relayScope() (bool, []netip.Addr) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.relay, h.peers
}

// abandon marks a request the rendezvous no longer waits for: its
// answer, if it comes, is dropped. A host that leaves more than
// maxAbandoned requests unanswered is dropped.
func (h *hostConn) abandon(id uint64) {
	h.mu.Lock()
	delete(h.waiting, id)
	h.abandoned[id] = struct{}{}
	over := len(h.abandoned) > h.maxAbandoned
	h.mu.Unlock()
	if over {
		h.ws.CloseNow()
	}
}

// deliver hands a response to the request waiting for it, and drops the
// late answer to one no longer waited for. A response to no request the
// host was sent, or to one already answered, is an error: the host is
// dropped.
func (h *hostConn) deliver(m Message) error {
	h.mu.Lock()
	ch, ok := h.waiting[m.ID]
	delete(h.waiting, m.ID)
	_, late := h.abandoned[m.ID]
	delete(h.abandoned, m.ID)
	h.mu.Unlock()
	switch {
	case ok:
		ch <- m // buffered
	case !late:
		return fmt.Errorf("%w: a response to request %d, which awaits none", ErrBadMessage, m.ID)
	}
	return nil
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
	if path == iceServersPath && (r.Method == http.MethodGet || r.Method == http.MethodHead) && s.cfg.ICEServers != nil {
		if relay, peers := h.relayScope(); relay {
			s.serveICE(w, r, code, peers)
			return
		}
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
		w.Header().Set("Content-Security-Policy", s.cfg.StaticPolicy)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		s.cfg.Static.ServeHTTP(&pacedWriter{ResponseWriter: w, ctx: r.Context(), lim: s.byteLim, key: s.cfg.ClientKey(r),
			chunk: min(maxStaticChunk, s.cfg.StaticBurst)}, r2)
		return
	}
	http.Error(w, "not found", http.StatusNotFound)
}

// iceServersPath is where a game server hands out its ICE servers
// (game/protocol.ICEServersPath).
const iceServersPath = "/ice"

// serveICE answers a player's GET LINK/ice for a host that asked the
// rendezvous to: STUN and TURN servers with a credential of the player's
// own, one per connection (its id an HMAC of the code and the player's
// address and port under a key of the rendezvous's, telling nothing of
// either), scoped to the host's peers. Each client address is
// rate-limited.
func (s *Server) serveICE(w http.ResponseWriter, r *http.Request, code string, peers []netip.Addr) {
	if s.limited(w, s.iceLim, s.cfg.ClientKey(r)) {
		return
	}
	mac := hmac.New(sha256.New, s.idKey[:])
	mac.Write([]byte(code + "\x00" + r.RemoteAddr))
	list, ttl := s.cfg.ICEServers("p"+hex.EncodeToString(mac.Sum(nil)[:8]), peers)
	if len(list) == 0 {
		list = json.RawMessage("[]")
	}
	body, err := json.Marshal(struct {
		ICEServers json.RawMessage `json:"iceServers"`
		TTL        int             `json:"ttl,omitempty"`
	}{list, int(ttl / time.Second)})
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	s.iceServed.Add(1)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// pacedWriter writes the browser build to a client no faster than its
// address's byte limit allows.
type pacedWriter struct {
	http.ResponseWriter
	ctx   context.Context
	lim   *ratelimit.Keyed
	key   string
	chunk int
}

func (p *pacedWriter) Write(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		c := min(len(b), p.chunk)
		if err := p.lim.WaitN(p.ctx, p.key, c); err != nil {
			return n, err
		}
		m, err := p.ResponseWriter.Write(b[:c])
		n += m
		if err != nil {
			return n, err
		}
		b = b[c:]
	}
	return n, nil
}

// answerType is the Content-Type a host's answer is passed on with: its
// own when it is JSON or plain text, what a signalling answer is, and
// plain text for anything else (a host cannot serve a page, a script or
// anything a browser would run under the rendezvous's name).
func answerType(types []string) string {
	if len(types) > 0 {
		if mt, _, err := mime.ParseMediaType(types[0]); err == nil && (mt == "application/json" || mt == "text/plain") {
			return types[0]
		}
	}
	return "text/plain; charset=utf-8"
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
	forget := func() { h.abandon(m.ID) }
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
			if k == "Content-Type" {
				continue
			}
			for _, v := range resp.Header[k] {
				w.Header().Add(k, v)
			}
		}
		w.Header().Set("Content-Type", answerType(resp.Header["Content-Type"]))
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Security-Policy", forwardedPolicy)
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
