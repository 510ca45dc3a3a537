//go:build !js

package webrtc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/netcode/ratelimit"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
	"golang.org/x/time/rate"
)

// Defaults used for zero fields of [ServerConfig].
const (
	DefaultMaxSessions    = 64
	DefaultMaxBodyBytes   = 64 << 10
	DefaultConnectTimeout = 10 * time.Second
	DefaultMaxConnecting  = 16
	// DefaultMaxConnectingPerClient is the least default of
	// MaxConnectingPerClient.
	DefaultMaxConnectingPerClient = 3
	// DefaultOfferRate and DefaultOfferBurst: a client may post 5 offers at
	// once, then 2 a second.
	DefaultOfferRate  rate.Limit = 2
	DefaultOfferBurst            = 5
	DefaultMaxClients            = 4096
	// fullRetryAfter and connectingRetryAfter are the Retry-After of the 503
	// answers to offers beyond MaxSessions and MaxConnecting: a game slot
	// frees slowly, a negotiating one within ConnectTimeout at worst.
	fullRetryAfter       = 5 * time.Second
	connectingRetryAfter = time.Second
	// gatherTimeout bounds the server's own ICE gathering per offer; with
	// the UDP mux it takes microseconds.
	gatherTimeout = 5 * time.Second

	// RoundSettleMax bounds how long [Server.ReadRound] waits for its
	// round to pass the stack; roundSettleQuiet is how long nothing must
	// move for the round to count as passed, on one thread (GOMAXPROCS
	// 1), roundSettleQuietThreads on more.
	RoundSettleMax          = 10 * time.Millisecond
	roundSettleQuiet        = 50 * time.Microsecond
	roundSettleQuietThreads = time.Millisecond
)

// ServerConfig configures [NewServer]. Zero fields take the defaults.
type ServerConfig struct {
	ConnConfig

	// Version is the version of the application's protocol the server
	// speaks (numbered from 1; required): an offer that names another, or
	// none when Version is above 1, is refused with 400 "protocol version
	// N; this server speaks V".
	Version int

	// UDPPort is the one UDP port all peers share (through an ICE UDP mux).
	// 0 picks an ephemeral port; see [Server.LocalUDPPort].
	UDPPort int

	// UDPHost is the IP address the UDP socket binds to; empty means all
	// interfaces, whose addresses are then offered as host candidates.
	UDPHost string

	// PacketConn, if set, is used instead of listening on UDPHost:UDPPort
	// (for example a vnet socket in tests). The server closes it on Close.
	PacketConn net.PacketConn

	// IncludeLoopback offers loopback host candidates, which pion leaves out
	// by default. Needed for clients on the same host reaching 127.0.0.1.
	IncludeLoopback bool

	// PublicIPs, if set, are offered as host candidates on the shared UDP
	// port beside the interfaces' own addresses: the public addresses of a
	// server behind a 1:1 NAT (a cloud VM, whose public address is on no
	// interface) or behind a router that forwards the port. The interfaces'
	// addresses stay, so that peers on the server's own network still reach
	// it directly. Each must be an IP address.
	PublicIPs []string

	// STUNServer, if set (host:port), is asked once at start, through the
	// shared UDP socket, which address the internet sees that socket at;
	// its IP is offered as PublicIPs are. For a server behind a NAT whose
	// public address it does not know (a home router with the port
	// forwarded, or none: a hole-punched path opens from the server's own
	// checks). A NAT that maps the port to another is logged, since the
	// candidate names the local port. No answer within a few seconds is
	// logged and the server goes on without it.
	STUNServer string

	// MaxSessions caps the concurrent sessions, counting those still
	// negotiating; an offer beyond it gets 503 "server full" with
	// Retry-After: 5.
	MaxSessions int

	// MaxConnecting caps the sessions still negotiating: answered (or being
	// answered) but whose four channels are not all open yet. It bounds what
	// peers that post offers and never connect can hold, each for up to
	// ConnectTimeout, apart from MaxSessions so that they cannot fill the
	// game. An offer beyond it gets 503 "too many connecting" with
	// Retry-After: 1. Default 16.
	MaxConnecting int

	// MaxConnectingPerClient caps the sessions still negotiating of one
	// client, as ClientKey names it: an address that posts offers and never
	// connects holds at most this many of MaxConnecting's slots, however
	// it times them within its rate limit. Beyond: 503 "too many
	// connecting from this address" with Retry-After: 1. Default: as
	// many as OfferBurst lets it post at once, at least 3.
	MaxConnectingPerClient int

	// OfferRate and OfferBurst rate-limit the offers of each client (as
	// named by ClientKey) with a token bucket: OfferBurst offers at once,
	// then OfferRate a second. An offer beyond gets 429 "too many offers"
	// with a Retry-After of the seconds until the next one would pass. Every
	// POST counts, valid or not. Zero fields take the defaults (2/s, burst
	// 5); OfferRate rate.Inf disables the limit.
	OfferRate  rate.Limit
	OfferBurst int

	// MaxClients bounds the table of per-client buckets. A bucket idle long
	// enough to have refilled (OfferBurst/OfferRate, at least 1 s) is
	// dropped, since a new one is the same; if the table is still full of
	// recently active clients, the least recently seen is dropped. Default
	// 4096.
	MaxClients int

	// ClientKey names the client an offer counts against for OfferRate
	// and MaxConnectingPerClient. nil means [ratelimit.Subscriber]: the IP
	// address of r.RemoteAddr, the TCP peer, trusting no header, an IPv6
	// address by its /64 (one subscriber's block: 100 addresses of one /64
	// are one client). Behind a reverse proxy every offer then has the
	// proxy's address; set ClientKey to read the proxy's header (such as
	// X-Forwarded-For) only if the proxy overwrites it, since clients can
	// set it to anything.
	ClientKey func(r *http.Request) string

	// MaxBodyBytes caps the offer's body; beyond it: 413 "offer too large".
	MaxBodyBytes int64

	// ConnectTimeout is how long a peer has, from the offer, to complete
	// ICE and DTLS and open all four channels; a peer that does not is
	// closed, never accepted, and counted in ServerStats.TimedOut.
	ConnectTimeout time.Duration

	// NoProgressTimeout, if positive, closes sooner a session whose peer
	// has sent no ICE connectivity check, nor answered one, this long
	// after its offer: an offer posted only to hold a negotiating slot
	// never checks. Zero (the default) leaves it to ConnectTimeout: a
	// browser busy starting its game under load was seen to take more
	// than 3 s to send its first check through a relay. Counted in
	// TimedOut.
	NoProgressTimeout time.Duration

	// Logger receives the server's log records; nil means slog.Default().
	Logger *slog.Logger

	// SettingEngine, if set, adjusts the pion SettingEngine after this
	// package's settings (for example SetNet for a vnet test network). It
	// must not undo DetachDataChannels or the UDP mux.
	SettingEngine func(*webrtc.SettingEngine)

	// Route, if set, names the route of each offer: the group of sessions
	// (one match of a server hosting several) whose [Server.AcceptRoute]
	// receives the session once its channels are open. live tells how many
	// live sessions (negotiating or accepted) each route has, so that Route
	// can refuse a full one or choose among several. An error wrapping
	// [ErrNoRoute] is answered 404 with the error's text, one wrapping
	// [ErrRouteFull] 503 "server full" with Retry-After: 5 (as MaxSessions),
	// any other 400 with its text (less the sentinel's own text, so that
	// fmt.Errorf("no match %q: %w", id, ErrNoRoute) answers `no match "7"`).
	//
	// Route is called twice per offer: before the body is read and again
	// as the session is registered, with the server's lock held, so that
	// live counts every other session exactly; it must be quick and must
	// not call the Server's methods. The second call's route is the
	// session's. nil puts every session on the route "", which Accept
	// serves.
	Route func(r *http.Request, live func(route string) int) (string, error)

	// ReadInterval, if positive, has the shared UDP socket read in rounds
	// instead of one datagram at a time: a round reads everything queued
	// and passes it up pion's stack as a burst, so the process wakes once
	// a tick rather than a few times a player a tick. Rounds come when
	// ReadRound (or ReadNow) is called, a game calling ReadRound at each
	// tick before it steps; at most ReadInterval apart otherwise; and
	// at most 2 ms apart while any session is still negotiating. A
	// datagram waits in the kernel's receive buffer until its round, or
	// until the socket is drained between rounds into an intake of the
	// server's own, which keeps only what can be a peer's (STUN, and DTLS
	// from addresses the server answered), each sender at most a share of
	// it: as often as the traffic needs for the kernel's buffer never to
	// fill (under a flood, every few milliseconds; otherwise only in
	// rounds). On Linux the socket is read outside the Go runtime's
	// network poller. Zero (the
	// default) reads every datagram as it comes. Only a socket the server
	// opens, or a *net.UDPConn given as PacketConn (which the server then
	// owns), is read in rounds.
	ReadInterval time.Duration

	// ReceiveBuffer is the receive buffer, in bytes, that a socket read in
	// rounds asks the kernel for (which grants at most net.core.rmem_max:
	// 212,992 on a stock Linux host). Zero means DefaultReceiveBuffer.
	ReceiveBuffer int

	// Admit, if set, decides who may join: it is called once per offer
	// that passed the rate limit and the session caps, from the request's
	// headers and query alone: before the body is read (a token is checked
	// for a microsecond; a 64 KiB SDP would take half a millisecond to
	// parse) and before any WebRTC work (no peer connection exists yet). It returns
	// the request the rest of the signalling sees (r itself, or one whose
	// query names the match a join token is for, for Route) and a value
	// the session keeps, which its connection's Admission returns (who
	// the peer is, say). An error wrapping [ErrUnauthorized] is answered
	// 401 with the error's text (less the sentinel's), one wrapping
	// [ErrForbidden] 403, any other 503 with Retry-After: 1.
	Admit func(r *http.Request) (*http.Request, any, error)

	// Settle, if set, is told once for every offer Admit admitted whether
	// it became a session for good (joined: its four channels opened) or
	// not (refused after Admit, its peer connection failed, or it never
	// opened its channels), with the admission Admit returned: a join
	// token held by Admit is then spent, or freed for the player's retry.
	Settle func(admission any, joined bool)
}

// Server accepts WebRTC connections: its ServeHTTP answers offers, and
// Accept returns the connections whose four channels are open and valid.
type Server struct {
	cfg    ServerConfig
	log    *slog.Logger
	api    *webrtc.API
	pconn  net.PacketConn
	mux    ice.UDPMux
	rounds *roundConn   // nil: each datagram is read as it comes
	udp    *net.UDPConn // the shared socket when read as it comes and the server's own

	// delivered counts the messages the sessions' channels have read (what
	// ReadRound watches for its round to settle).
	delivered atomic.Uint64

	limiter *offerLimiter
	stats   serverCounters
	public  []string       // the public addresses offered beside the interfaces' (PublicIPs and STUN's)
	stun    netip.AddrPort // the address the STUN server saw, if it answered

	mu         sync.Mutex
	closed     bool
	sessions   map[*conn]string         // every live session, negotiating or accepted, with its route
	connecting map[*conn]struct{}       // the sessions whose channels are not all open
	clientOf   map[*conn]string         // every live session's ClientKey
	connBy     map[string]int           // sessions negotiating, by ClientKey
	live       map[string]int           // live sessions by route
	acceptQ    map[string][]*conn       // ready sessions by route, until accepted; no empty queue is kept
	notify     map[string]chan struct{} // by route, capacity 1: something was queued
	done       chan struct{}            // closed by Close
}

// NewServer listens on the UDP port and returns a server ready for offers.
func NewServer(cfg ServerConfig) (*Server, error) {
	if cfg.Version < 1 {
		return nil, fmt.Errorf("%w: %d", ErrNoVersion, cfg.Version)
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.ReceiveBuffer <= 0 {
		cfg.ReceiveBuffer = DefaultReceiveBuffer
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.MaxConnecting <= 0 {
		cfg.MaxConnecting = DefaultMaxConnecting
	}
	if cfg.OfferRate <= 0 {
		cfg.OfferRate = DefaultOfferRate
	}
	if cfg.OfferBurst <= 0 {
		cfg.OfferBurst = DefaultOfferBurst
	}
	if cfg.MaxClients <= 0 {
		cfg.MaxClients = DefaultMaxClients
	}
	if cfg.ClientKey == nil {
		cfg.ClientKey = ratelimit.Subscriber
	}
	if cfg.MaxConnectingPerClient <= 0 {
		cfg.MaxConnectingPerClient = max(DefaultMaxConnectingPerClient, cfg.OfferBurst)
	}
	cfg.ConnConfig = cfg.ConnConfig.WithDefaults()
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}

	pconn := cfg.PacketConn
	if pconn == nil {
		var ip net.IP
		if cfg.UDPHost != "" {
			if ip = net.ParseIP(cfg.UDPHost); ip == nil {
				return nil, fmt.Errorf("webrtc: UDPHost %q is not an IP address", cfg.UDPHost)
			}
		}
		udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: ip, Port: cfg.UDPPort})
		if err != nil {
			return nil, fmt.Errorf("webrtc: listen: %w", err)
		}
		pconn = udp
	}
	if _, ok := pconn.LocalAddr().(*net.UDPAddr); !ok {
		pconn.Close()
		return nil, fmt.Errorf("webrtc: PacketConn address %v is not UDP", pconn.LocalAddr())
	}

	// The server is made before the mux, whose reading goroutine may ask
	// it (negotiating) at once; the mux, API and socket are set below.
	s := &Server{
		cfg:        cfg,
		log:        log,
		limiter:    newOfferLimiter(cfg.OfferRate, cfg.OfferBurst, cfg.MaxClients),
		sessions:   make(map[*conn]string),
		connecting: make(map[*conn]struct{}),
		clientOf:   make(map[*conn]string),
		connBy:     make(map[string]int),
		live:       make(map[string]int),
		acceptQ:    make(map[string][]*conn),
		notify:     make(map[string]chan struct{}),
		done:       make(chan struct{}),
	}
	publicIPs, stunAddr, err := s.publicIPs(pconn)
	if err != nil {
		pconn.Close()
		return nil, err
	}
	s.public, s.stun = publicIPs, stunAddr
	var rounds *roundConn
	if udp, ok := pconn.(*net.UDPConn); ok && cfg.ReadInterval > 0 {
		rc, err := newRoundConn(udp, cfg.ReadInterval, s.negotiating, cfg.ReceiveBuffer)
		if err != nil {
			pconn.Close()
			return nil, err
		}
		rounds, pconn = rc, rc
		// Between rounds datagrams wait in the kernel's buffer: say so
		// when it granted less than the rounds asked for.
		if info, ok := rc.sock.info(); ok && info.ReceiveBuffer < 2*cfg.ReceiveBuffer {
			log.Warn("UDP receive buffer smaller than asked: the socket is drained between rounds more often under load; raise net.core.rmem_max",
				"granted_bytes", info.ReceiveBuffer/2, "asked_bytes", cfg.ReceiveBuffer,
				"fix", fmt.Sprintf("sysctl -w net.core.rmem_max=%d", cfg.ReceiveBuffer))
		}
	} else if udp, ok := pconn.(*net.UDPConn); ok {
		s.udp = udp
	}
	pionLog := pionLoggerFactory{log: log}
	mux := ice.NewUDPMuxDefault(ice.UDPMuxParams{
		UDPConn: pconn,
		Logger:  pionLog.NewLogger("udpmux"),
	})

	se := baseSettingEngine(log, cfg.IncludeLoopback)
	se.SetICEUDPMux(mux)
	if len(publicIPs) > 0 {
		err := se.SetICEAddressRewriteRules(webrtc.ICEAddressRewriteRule{
			External:        publicIPs,
			AsCandidateType: webrtc.ICECandidateTypeHost,
			Mode:            webrtc.ICEAddressRewriteAppend,
		})
		if err != nil {
			mux.Close()
			pconn.Close()
			return nil, fmt.Errorf("webrtc: PublicIPs: %w", err)
		}
	}
	if cfg.SettingEngine != nil {
		cfg.SettingEngine(&se)
	}

	s.api, s.pconn, s.mux, s.rounds = newAPI(se), pconn, mux, rounds
	log.Info("webrtc server listening", "udp", pconn.LocalAddr().String())
	return s, nil
}

// stunTimeout bounds the STUN query at start.
const stunTimeout = 4 * time.Second

// publicIPs returns the addresses to offer beside the interfaces': the
// configured PublicIPs and the IP the STUN server saw pconn's datagrams
// come from, and that address (the zero AddrPort without an answer).
func (s *Server) publicIPs(pconn net.PacketConn) ([]string, netip.AddrPort, error) {
	var ips []string
	for _, ip := range s.cfg.PublicIPs {
		a, err := netip.ParseAddr(strings.TrimSpace(ip))
		if err != nil {
			return nil, netip.AddrPort{}, fmt.Errorf("webrtc: PublicIPs: %w", err)
		}
		if !slices.Contains(ips, a.Unmap().String()) {
			ips = append(ips, a.Unmap().String())
		}
	}
	if s.cfg.STUNServer == "" {
		return ips, netip.AddrPort{}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), stunTimeout)
	defer cancel()
	addr, err := discoverPublicAddr(ctx, pconn, s.cfg.STUNServer)
	if err != nil {
		s.log.Warn("no public address from STUN; offering the interfaces' and PublicIPs only", "stun", s.cfg.STUNServer, "err", err)
		return ips, netip.AddrPort{}, nil
	}
	local := pconn.LocalAddr().(*net.UDPAddr).Port
	s.log.Info("public address from STUN", "stun", s.cfg.STUNServer, "addr", addr.String())
	if int(addr.Port()) != local {
		s.log.Warn("the NAT maps the UDP port to another; peers outside reach the server only if the NAT keeps the mapping, or through a relay (forward the port, or pin it on the router)",
			"udp_port", local, "public", addr.String())
	}
	if ip := addr.Addr().String(); !slices.Contains(ips, ip) {
		ips = append(ips, ip)
	}
	return ips, addr, nil
}

// PublicIPs returns the public addresses offered as host candidates beside
// the interfaces' own: ServerConfig.PublicIPs and the one STUN named.
func (s *Server) PublicIPs() []string { return slices.Clone(s.public) }

// STUNAddr returns the address ServerConfig.STUNServer saw the server's
// UDP socket at (IP and port after the NAT), and false when no STUN
// server was set or it did not answer.
func (s *Server) STUNAddr() (netip.AddrPort, bool) { return s.stun, s.stun.IsValid() }

// ReadNow starts a round of reading the shared socket (see
// ServerConfig.ReadInterval) if none is under way. Without ReadInterval it
// does nothing.
func (s *Server) ReadNow() {
	if s.rounds != nil {
		s.rounds.ReadNow()
	}
}

// ReadRound returns once a round of reading the shared socket that began
// at or after due has passed pion's stack into the connections' receive
// queues, as far as the server can tell (at most RoundSettleMax after it
// began), starting one if need be: a game that steps at fixed ticks calls
// it at each tick, just before the step, with the time the tick was due,
// so that every input that came before the tick is in it and the process
// wakes once a tick to read. Calls share rounds: the matches of a process,
// whose ticks fall together, read one round a tick between them. Without
// ReadInterval it returns at once.
func (s *Server) ReadRound(due time.Time) {
	if s.rounds != nil {
		s.rounds.settle(due, s.delivered.Load, roundSettleQuiet, roundSettleQuietThreads, RoundSettleMax)
	}
}

// negotiating reports whether a session is still negotiating.
func (s *Server) negotiating() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.connecting) > 0
}

// LocalUDPPort returns the UDP port all peers share.
func (s *Server) LocalUDPPort() int {
	return s.pconn.LocalAddr().(*net.UDPAddr).Port
}

// Sessions returns how many sessions are live, negotiating or accepted.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// SocketInfo is what the kernel says of the server's shared UDP socket.
type SocketInfo struct {
	// ReceiveBuffer is the room the kernel holds for datagrams waiting to
	// be read, in bytes as it counts them (twice what was granted, for its
	// own overhead; net.core.rmem_max bounds what a socket may ask).
	ReceiveBuffer int
	// Dropped counts the datagrams the kernel dropped for want of room.
	Dropped uint64
}

// ServerStats are the counters of a [Server]'s signalling and sessions.
// Every POST counts in Offers and then in exactly one of Answered, a
// Rejected field, or none if the client went away before the answer.
type ServerStats struct {
	Offers   uint64 // POSTs to ServeHTTP
	Answered uint64 // offers answered with 200: sessions started

	RejectedRate       uint64 // 429: the client's OfferRate exceeded
	RejectedConnecting uint64 // 503: MaxConnecting sessions negotiating
	RejectedFull       uint64 // 503: MaxSessions sessions live
	RejectedMalformed  uint64 // 400: not an offer, unreadable, malformed SDP
	RejectedTooLarge   uint64 // 413: body over MaxBodyBytes
	RejectedNoRoute    uint64 // 404: Route knows no such route (no such match)
	RejectedAdmission  uint64 // 401, 403 or 503: Admit refused the peer
	RejectedOther      uint64 // server closed, internal error, gathering timeout

	Connected uint64 // sessions whose four channels opened (given to Accept)
	TimedOut  uint64 // sessions closed for missing ConnectTimeout

	// Paths counts the Connected sessions by the network path each took,
	// as the server sees it (datachan.Paths: "host", "prflx", "srflx", or
	// "relay" for a peer that came through its TURN relay).
	Paths map[string]uint64

	Active     int // live sessions whose channels are all open
	Connecting int // live sessions still negotiating

	// Socket is what the kernel says of the shared UDP socket; SocketKnown
	// is false where it says nothing (a socket not the server's own, or
	// not Linux).
	Socket      SocketInfo
	SocketKnown bool

	// Intake counts what the shared socket read in rounds took and
	// dropped before pion saw it (zero without rounds).
	Intake IntakeStats
}

type serverCounters struct {
	offers, answered                                   atomic.Uint64
	rate, connecting, full, malformed, tooLarge, other atomic.Uint64
	noRoute, unadmitted                                atomic.Uint64
	connected, timedOut                                atomic.Uint64
	paths                                              sync.Map // path name -> *atomic.Uint64
}

// countPath counts a connected session's path.
func (c *serverCounters) countPath(path string) {
	if path == "" {
		path = "unknown"
	}
	n, _ := c.paths.LoadOrStore(path, new(atomic.Uint64))
	n.(*atomic.Uint64).Add(1)
}

// pathCounts returns the sessions counted by path.
func (c *serverCounters) pathCounts() map[string]uint64 {
	m := make(map[string]uint64)
	c.paths.Range(func(k, v any) bool {
		m[k.(string)] = v.(*atomic.Uint64).Load()
		return true
	})
	return m
}

// Stats returns the server's counters.
func (s *Server) Stats() ServerStats {
	s.mu.Lock()
	live, connecting := len(s.sessions), len(s.connecting)
	s.mu.Unlock()
	sock, sockKnown := s.socket()
	c := &s.stats
	return ServerStats{
		Offers:             c.offers.Load(),
		Answered:           c.answered.Load(),
		RejectedRate:       c.rate.Load(),
		RejectedConnecting: c.connecting.Load(),
		RejectedFull:       c.full.Load(),
		RejectedMalformed:  c.malformed.Load(),
		RejectedTooLarge:   c.tooLarge.Load(),
		RejectedNoRoute:    c.noRoute.Load(),
		RejectedAdmission:  c.unadmitted.Load(),
		RejectedOther:      c.other.Load(),
		Connected:          c.connected.Load(),
		TimedOut:           c.timedOut.Load(),
		Paths:              c.pathCounts(),
		Active:             live - connecting,
		Connecting:         connecting,
		Socket:             sock,
		SocketKnown:        sockKnown,
		Intake:             s.intakeStats(),
	}
}

// intakeStats are the round socket's intake counters.
func (s *Server) intakeStats() IntakeStats {
	if s.rounds == nil {
		return IntakeStats{}
	}
	return s.rounds.count.stats()
}

// socket reads what the kernel says of the shared UDP socket.
func (s *Server) socket() (SocketInfo, bool) {
	switch {
	case s.rounds != nil:
		return s.rounds.sock.info()
	case s.udp != nil:
		return socketInfo(s.udp)
	}
	return SocketInfo{}, false
}

// httpError writes a short text error.
func httpError(w http.ResponseWriter, msg string, code int) {
	http.Error(w, msg, code)
}

// rejection is why an offer is refused, with its answer.
type rejection struct {
	msg     string
	code    int
	retry   time.Duration // Retry-After, if not 0
	counter *atomic.Uint64
}

// reject counts and writes a refusal.
func (s *Server) reject(w http.ResponseWriter, rej rejection) {
	rej.counter.Add(1)
	if rej.retry > 0 {
		w.Header().Set("Retry-After", retryAfter(rej.retry))
	}
	httpError(w, rej.msg, rej.code)
}

// malformed is the refusal of a request that is not a valid offer, counted
// in RejectedMalformed.
func (s *Server) malformed(msg string) rejection {
	return rejection{msg: msg, code: http.StatusBadRequest, counter: &s.stats.malformed}
}

// other is a refusal for the server's own state (closed, timed out),
// counted in RejectedOther.
func (s *Server) other(msg string) rejection {
	return rejection{msg: msg, code: http.StatusServiceUnavailable, counter: &s.stats.other}
}

// internalError is the refusal for a failure of the WebRTC stack, counted
// in RejectedOther.
func (s *Server) internalError() rejection {
	return rejection{msg: "internal error", code: http.StatusInternalServerError, counter: &s.stats.other}
}

// ServeHTTP is the signalling endpoint: it takes a POSTed JSON offer and
// answers with a JSON answer once the server's candidates are gathered.
// Before any work, an offer must pass its client's rate limit and the
// session caps; the caps are checked again when the session is registered.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpError(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s.stats.offers.Add(1)
	if rej, ok := s.allowOffer(r); !ok {
		s.reject(w, rej)
		return
	}
	// Who may join is decided from the headers and the query alone,
	// before the body is read or parsed.
	r, admission, rej, ok := s.admit(r)
	if !ok {
		s.reject(w, rej)
		return
	}
	offer, rej, ok := s.readOffer(w, r)
	if !ok {
		s.settle(admission, false)
		s.reject(w, rej)
		return
	}
	log := s.log.With("remote", r.RemoteAddr)
	c, rej, ok := s.startSession(r, admission, log)
	if !ok {
		s.settle(admission, false)
		s.reject(w, rej)
		return
	}
	sdp, rej, ok := s.answer(r.Context(), c, offer, log)
	if !ok {
		if rej != (rejection{}) {
			s.reject(w, rej)
		}
		return
	}
	s.writeAnswer(w, sdp)
}

// allowOffer tells whether request r's client is within its rate limit
// and a new session would fit, or returns the refusal to answer with.
func (s *Server) allowOffer(r *http.Request) (rejection, bool) {
	if ok, wait := s.limiter.Allow(s.cfg.ClientKey(r), time.Now()); !ok {
		return rejection{msg: "too many offers", code: http.StatusTooManyRequests, retry: wait, counter: &s.stats.rate}, false
	}
	return s.checkCapacity(r)
}

// readOffer reads the offer of request r and returns its SDP: the body
// must be a JSON offer of at most MaxBodyBytes. Otherwise it returns the
// refusal to answer with.
func (s *Server) readOffer(w http.ResponseWriter, r *http.Request) (string, rejection, bool) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return "", rejection{msg: "offer too large", code: http.StatusRequestEntityTooLarge, counter: &s.stats.tooLarge}, false
		}
		return "", s.malformed("bad request"), false
	}
	offer, err := parseOffer(data, s.cfg.Version)
	if err != nil {
		return "", s.malformed(err.Error()), false
	}
	return offer, rejection{}, true
}

// startSession creates the peer of a new session and registers the session,
// which then has ConnectTimeout to open its four channels: once they are
// open it is handed to Accept, and a channel that is not one of the match's
// fails it. It returns the refusal to answer with if the peer cannot be
// created or the session no longer fits. From a successful return on,
// closing the conn releases the session.
func (s *Server) startSession(r *http.Request, admission any, log *slog.Logger) (*conn, rejection, bool) {
	pc, err := s.api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		log.Warn("new peer connection", "err", err)
		return nil, s.internalError(), false
	}
	c := newConn(pc, s.cfg.ConnConfig, log)
	c.admission = admission
	c.delivered = &s.delivered
	// The timer is armed once the session is registered.
	timer := time.AfterFunc(time.Duration(math.MaxInt64), func() {
		if c.Closed() {
			return
		}
		select {
		case <-c.ready:
		default:
			s.stats.timedOut.Add(1)
			c.Fail(fmt.Errorf("rejecting peer: %w (%v)", ErrConnectTimeout, s.cfg.ConnectTimeout))
		}
	})
	// Sooner, if the peer never so much as sends an ICE check.
	stalled := time.AfterFunc(time.Duration(math.MaxInt64), func() {
		if c.Closed() || c.iceProgress() {
			return
		}
		select {
		case <-c.ready:
		default:
			s.stats.timedOut.Add(1)
			c.Fail(fmt.Errorf("rejecting peer: %w (no ICE check in %v)", ErrConnectTimeout, s.cfg.NoProgressTimeout))
		}
	})
	var settleOnce sync.Once
	settle := func(joined bool) { settleOnce.Do(func() { s.settle(admission, joined) }) }
	c.onReady = func() {
		timer.Stop()
		stalled.Stop()
		if !s.connected(c) {
			return
		}
		settle(true)
		path := c.Stats().Path
		s.stats.countPath(path)
		log.Info("peer connected", "path", path)
		s.enqueue(c)
	}
	if rej, ok := s.addSession(r, c, func() { timer.Stop(); stalled.Stop(); settle(false) }); !ok {
		timer.Stop()
		stalled.Stop()
		c.Close()
		return nil, rej, false
	}
	timer.Reset(s.cfg.ConnectTimeout)
	if s.cfg.NoProgressTimeout > 0 && s.cfg.NoProgressTimeout < s.cfg.ConnectTimeout {
		stalled.Reset(s.cfg.NoProgressTimeout)
	}
	s.ReadNow() // its ICE checks are not to wait for a round
	c.watchState()
	pc.OnDataChannel(func(dc *webrtc.DataChannel) {
		ch, err := checkChannel(dc)
		if err == nil {
			err = c.setChannel(ch, dc)
		}
		if err != nil {
			c.Fail(fmt.Errorf("rejecting peer: %w", err))
		}
	})
	return c, rejection{}, true
}

// answer negotiates the session c with the client's offer and returns the
// server's answer SDP, candidates included, once they are gathered (or
// gatherTimeout has passed, or ctx, the request's, is done). On failure it
// closes c (if the server's closing has not already) and returns the
// refusal to answer with, or a zero rejection if the client went away and
// nothing is to be written.
func (s *Server) answer(ctx context.Context, c *conn, offer string, log *slog.Logger) (string, rejection, bool) {
	pc := c.pc
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		c.Close()
		if s.isClosed() {
			return "", s.other("server closed"), false
		}
		log.Debug("malformed offer", "err", err)
		return "", s.malformed("malformed SDP: " + datachan.Shorten(err.Error(), 120)), false
	}
	answer, err := pc.CreateAnswer(nil)
	if err != nil {
		c.Close()
		log.Debug("cannot answer offer", "err", err)
		return "", s.malformed("malformed SDP: " + datachan.Shorten(err.Error(), 120)), false
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(answer); err != nil {
		c.Close()
		log.Warn("set answer", "err", err)
		return "", s.internalError(), false
	}
	gatherCtx, cancel := context.WithTimeout(ctx, gatherTimeout)
	defer cancel()
	select {
	case <-gathered:
	case <-c.Done():
		return "", s.other("server closed"), false
	case <-gatherCtx.Done():
		c.Close()
		if ctx.Err() != nil {
			return "", rejection{}, false // the client went away
		}
		log.Warn("gathering candidates", "err", gatherCtx.Err())
		return "", s.other("timeout"), false
	}
	return pc.LocalDescription().SDP, rejection{}, true
}

// writeAnswer counts the offer answered and writes sdp as a JSON answer.
func (s *Server) writeAnswer(w http.ResponseWriter, sdp string) {
	body, _ := json.Marshal(datachan.SDPMessage{Type: "answer", SDP: sdp})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Header().Set("Cache-Control", "no-store")
	s.stats.answered.Add(1)
	_, _ = w.Write(body)
}

// isClosed reports whether Close has been called.
func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// settle tells ServerConfig.Settle how an admitted offer ended; nothing
// without Admit (no offer was admitted) or Settle.
func (s *Server) settle(admission any, joined bool) {
	if s.cfg.Admit != nil && s.cfg.Settle != nil {
		s.cfg.Settle(admission, joined)
	}
}

// admit asks ServerConfig.Admit whether request r's peer may join and
// returns the request to go on with and the session's admission, or the
// refusal to answer with.
func (s *Server) admit(r *http.Request) (*http.Request, any, rejection, bool) {
	if s.cfg.Admit == nil {
		return r, nil, rejection{}, true
	}
	r2, admission, err := s.cfg.Admit(r)
	switch {
	case err == nil:
		if r2 == nil {
			r2 = r
		}
		return r2, admission, rejection{}, true
	case errors.Is(err, ErrUnauthorized):
		return r, nil, rejection{msg: routeText(err, ErrUnauthorized), code: http.StatusUnauthorized, counter: &s.stats.unadmitted}, false
	case errors.Is(err, ErrForbidden):
		return r, nil, rejection{msg: routeText(err, ErrForbidden), code: http.StatusForbidden, counter: &s.stats.unadmitted}, false
	}
	return r, nil, rejection{msg: routeText(err, nil), code: http.StatusServiceUnavailable, retry: time.Second, counter: &s.stats.unadmitted}, false
}

// checkCapacity tells whether a new session for request r would fit.
func (s *Server) checkCapacity(r *http.Request) (rejection, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, rej, ok := s.capacityLocked(r)
	return rej, ok
}

// full is the refusal of an offer for which there is no room.
func (s *Server) full() rejection {
	return rejection{msg: "server full", code: http.StatusServiceUnavailable, retry: fullRetryAfter, counter: &s.stats.full}
}

// capacityLocked tells whether a new session for request r would fit, and
// on which route.
func (s *Server) capacityLocked(r *http.Request) (string, rejection, bool) {
	switch {
	case s.closed:
		return "", s.other("server closed"), false
	case len(s.sessions) >= s.cfg.MaxSessions:
		return "", s.full(), false
	case len(s.connecting) >= s.cfg.MaxConnecting:
		return "", rejection{msg: "too many connecting", code: http.StatusServiceUnavailable, retry: connectingRetryAfter, counter: &s.stats.connecting}, false
	case s.connBy[s.cfg.ClientKey(r)] >= s.cfg.MaxConnectingPerClient:
		return "", rejection{msg: "too many connecting from this address", code: http.StatusServiceUnavailable, retry: connectingRetryAfter, counter: &s.stats.connecting}, false
	}
	if s.cfg.Route == nil {
		return "", rejection{}, true
	}
	route, err := s.cfg.Route(r, s.liveLocked)
	switch {
	case err == nil:
		return route, rejection{}, true
	case errors.Is(err, ErrNoRoute):
		return "", rejection{msg: routeText(err, ErrNoRoute), code: http.StatusNotFound, counter: &s.stats.noRoute}, false
	case errors.Is(err, ErrRouteFull):
		return "", s.full(), false
	}
	return "", s.malformed(routeText(err, nil)), false
}

// routeText is the answer's body for a Route error: its text without the
// sentinel's own ("no match 7: webrtc: no such route" reads "no match 7"),
// at most 200 bytes.
func routeText(err, sentinel error) string {
	msg := err.Error()
	if sentinel != nil && msg != sentinel.Error() {
		msg = strings.TrimSuffix(msg, ": "+sentinel.Error())
	}
	return datachan.Shorten(msg, 200)
}

// liveLocked returns the live sessions of route; s.mu is held.
func (s *Server) liveLocked(route string) int { return s.live[route] }

// addSession registers c as a negotiating session of request r's route, or
// returns the refusal to answer with. When c ends, it runs cleanup and
// frees the session's slot.
func (s *Server) addSession(r *http.Request, c *conn, cleanup func()) (rejection, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	route, rej, ok := s.capacityLocked(r)
	if !ok {
		return rej, false
	}
	s.sessions[c] = route
	s.connecting[c] = struct{}{}
	key := s.cfg.ClientKey(r)
	s.clientOf[c] = key
	s.connBy[key]++
	s.live[route]++
	c.onClosed = func() {
		cleanup()
		s.mu.Lock()
		if _, ok := s.sessions[c]; ok {
			if s.live[route]--; s.live[route] <= 0 {
				delete(s.live, route)
			}
		}
		s.stopConnectingLocked(c)
		delete(s.sessions, c)
		delete(s.clientOf, c)
		s.mu.Unlock()
	}
	return rejection{}, true
}

// RouteSessions returns how many sessions of route are live, negotiating
// or accepted.
func (s *Server) RouteSessions(route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live[route]
}

// connected moves c from negotiating to active; false if it has ended.
func (s *Server) connected(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.sessions[c]; !ok {
		return false
	}
	s.stopConnectingLocked(c)
	s.stats.connected.Add(1)
	return true
}

// stopConnectingLocked takes c off the negotiating sessions, and off its
// client's count; s.mu is held.
func (s *Server) stopConnectingLocked(c *conn) {
	if _, ok := s.connecting[c]; !ok {
		return
	}
	delete(s.connecting, c)
	key := s.clientOf[c]
	if s.connBy[key]--; s.connBy[key] <= 0 {
		delete(s.connBy, key)
	}
}

// notifyLocked returns route's notification channel, made on first use;
// s.mu is held.
func (s *Server) notifyLocked(route string) chan struct{} {
	ch := s.notify[route]
	if ch == nil {
		ch = make(chan struct{}, 1)
		s.notify[route] = ch
	}
	return ch
}

// enqueue hands a ready connection to the Accept of its route.
func (s *Server) enqueue(c *conn) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	route, ok := s.sessions[c]
	if !ok { // ended meanwhile
		s.mu.Unlock()
		return
	}
	s.acceptQ[route] = append(s.acceptQ[route], c)
	ch := s.notifyLocked(route)
	s.mu.Unlock()
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Accept returns the next connection whose four channels are open and
// valid, of the route "" (every connection, unless ServerConfig.Route is
// set). It fails with ctx's error or, after Close, [ErrServerClosed].
func (s *Server) Accept(ctx context.Context) (transport.Conn, error) {
	return s.AcceptRoute(ctx, "")
}

// AcceptRoute returns the next connection of route (see ServerConfig.Route)
// whose four channels are open and valid. It fails with ctx's error or,
// after Close, [ErrServerClosed]. Each route's connections come in the
// order they opened; a route's accepter never waits on another route's.
func (s *Server) AcceptRoute(ctx context.Context, route string) (transport.Conn, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, ErrServerClosed
		}
		ch := s.notifyLocked(route)
		for q := s.acceptQ[route]; len(q) > 0; q = s.acceptQ[route] {
			c := q[0]
			q[0] = nil
			if q = q[1:]; len(q) == 0 {
				delete(s.acceptQ, route)
			} else {
				s.acceptQ[route] = q
			}
			if c.Closed() {
				continue
			}
			more := len(q) > 0
			s.mu.Unlock()
			if more { // let another AcceptRoute take the next one
				select {
				case ch <- struct{}{}:
				default:
				}
			}
			return c, nil
		}
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.done:
			return nil, ErrServerClosed
		}
	}
}

// Close closes every session (accepted or not), the UDP mux and its socket.
// It is safe to call more than once.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	sessions := make([]*conn, 0, len(s.sessions))
	for c := range s.sessions {
		sessions = append(sessions, c)
	}
	clear(s.acceptQ)
	s.mu.Unlock()

	var wg sync.WaitGroup
	for _, c := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Close()
			<-c.Done() // if another goroutine was tearing it down
		}()
	}
	wg.Wait()
	err := s.mux.Close()
	_ = s.pconn.Close() // the mux closes it already; this is for safety
	return err
}

// checkChannel maps a peer's data channel to its transport.Channel and
// checks that it is configured as that channel must be.
func checkChannel(dc *webrtc.DataChannel) (transport.Channel, error) {
	ch, ok := channelByLabel(dc.Label())
	if !ok {
		return 0, fmt.Errorf("%w: unknown label %q", ErrBadChannel, datachan.Shorten(dc.Label(), 40))
	}
	rt, plt := dc.MaxRetransmits(), dc.MaxPacketLifeTime()
	if ch.Reliable() {
		if !dc.Ordered() || rt != nil || plt != nil {
			return 0, fmt.Errorf("%w: %s must be reliable and ordered", ErrBadChannel, ch)
		}
	} else if dc.Ordered() || rt == nil || *rt != 0 || plt != nil {
		return 0, fmt.Errorf("%w: %s must be unordered with MaxRetransmits 0", ErrBadChannel, ch)
	}
	return ch, nil
}
