package relay

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/turn/v5"

	"github.com/sightline-game/sightline/netcode/iceservers"
)

// Defaults of Config fields left zero.
const (
	DefaultRealm                 = "sightline"
	DefaultMaxTTL                = 24 * time.Hour
	DefaultMaxAllocationsPerUser = 4
	DefaultMaxBytesPerUser       = 8 << 30
)

// sweepInterval is how often the relay forgets expired usernames.
const sweepInterval = time.Minute

// Config configures a relay. Secret and a place to listen are required.
type Config struct {
	// Addr is where the relay listens for clients over UDP and TCP, the
	// same host and port for both (":3478"). With port 0 both get the
	// same free port.
	Addr string
	// TLSAddr, if set, is where the relay listens for clients over TLS
	// (turns:), with TLSConfig (which must then be set).
	TLSAddr   string
	TLSConfig *tls.Config

	// PacketConn, Listener and TLSListener are sockets made by the caller
	// (tests); any that is set is used instead of Addr or TLSAddr (TLS
	// for TLSListener is the caller's). The relay closes them on Close.
	PacketConn  net.PacketConn
	Listener    net.Listener
	TLSListener net.Listener

	// Secret is the secret shared with the game servers that mint the
	// relay's credentials (iceservers.Mint).
	Secret iceservers.Secret
	// Realm is the TURN realm; empty means DefaultRealm.
	Realm string

	// PublicIP is the IP of relayed addresses as told to clients; zero
	// means RelayBind, which must then be a specific address.
	PublicIP netip.Addr
	// RelayBind is the IP relay sockets bind to; zero means 0.0.0.0.
	RelayBind netip.Addr
	// AllowPeers are peer ranges allowed although DeniedPeer refuses them
	// (a game server on the relay's private network, loopback in tests).
	AllowPeers []netip.Prefix

	// MaxTTL is the longest a credential may still have to live for the
	// relay to accept it; zero means DefaultMaxTTL.
	MaxTTL time.Duration
	// MaxAllocationsPerUser is how many allocations one username may hold
	// at once (more are refused with 486 Allocation Quota Reached); zero
	// means DefaultMaxAllocationsPerUser.
	MaxAllocationsPerUser int
	// MaxBytesPerUser is how many bytes, both directions, one username's
	// allocations relay before they drop all they would relay (and new
	// ones are refused); zero means DefaultMaxBytesPerUser.
	MaxBytesPerUser int64

	// MaxPermissionsPerAllocation is how many peer IPs one allocation may
	// hold permissions (and channels) for at once; more are refused (403
	// to CreatePermission, 401 to ChannelBind, as the TURN library
	// answers). Zero means DefaultMaxPermissionsPerAllocation.
	MaxPermissionsPerAllocation int
	// MaxChannelsPerAllocation is how many channels one allocation may
	// bind at once; a refreshed channel is not a new one. Zero means
	// DefaultMaxChannelsPerAllocation.
	MaxChannelsPerAllocation int
	// MaxAllocationsPerAddress is how many allocations clients at one
	// address (IPv4) or /64 (IPv6) may hold at once, whatever their
	// credentials (486 beyond); zero means DefaultMaxAllocationsPerAddress.
	MaxAllocationsPerAddress int
	// MaxAllocations is how many allocations the relay holds at once (486
	// beyond); zero means DefaultMaxAllocations.
	MaxAllocations int
	// RateBytesPerSecond is what one allocation relays a second in each
	// direction, sustained, and RateBurstBytes what it may relay at once
	// beyond that after a quiet while (a token bucket each way); datagrams
	// over it are dropped. Zero means DefaultRateBytesPerSecond and
	// DefaultRateBurstBytes.
	RateBytesPerSecond int64
	RateBurstBytes     int64
	// MaxConnsPerAddr is how many TCP and TLS connections one client (an
	// IPv4 address, an IPv6 /64) may hold at once; more are closed as they
	// come. Zero means DefaultMaxConnsPerAddr.
	MaxConnsPerAddr int
	// MaxConns is how many TCP and TLS connections the relay holds at
	// once; more are closed as they come. Zero means DefaultMaxConns.
	MaxConns int
	// IdleTimeout closes a TCP or TLS connection that completed no STUN
	// or ChannelData message for that long; zero means
	// DefaultIdleTimeout. (A TURN client refreshes its allocation and
	// permissions every few minutes, and a game sends many times a
	// second.)
	IdleTimeout time.Duration
	// FirstMessageTimeout closes a TCP or TLS connection whose first
	// message (after the TLS handshake, which counts in it) is not
	// complete that long after it was accepted; zero means
	// DefaultFirstMessageTimeout.
	FirstMessageTimeout time.Duration
	// MaxFrame is the largest STUN or ChannelData message, header and
	// padding included, a TCP or TLS connection may announce: one that
	// announces more is closed before the relay buffers it. Zero means
	// DefaultMaxFrame.
	MaxFrame int

	// UDPReadBuffer is the receive buffer (SO_RCVBUF) the relay asks for
	// its UDP socket, which the kernel caps at net.core.rmem_max; zero
	// means DefaultUDPReadBuffer, negative leaves the kernel's default.
	UDPReadBuffer int
	// UnknownRate and UnknownBurst bound the UDP datagrams the relay takes
	// from unknown sources (addresses it has not lately sent a success
	// response or relayed data to) in all, a second and at once;
	// UnknownRatePerAddr and UnknownBurstPerAddr from each such client
	// (an IPv4 address, an IPv6 /64). Datagrams beyond them are dropped
	// unread. Zero means DefaultUnknownRate, DefaultUnknownBurst,
	// DefaultUnknownRatePerAddr and DefaultUnknownBurstPerAddr.
	UnknownRate, UnknownRatePerAddr   float64
	UnknownBurst, UnknownBurstPerAddr int
	// KnownFor is how long a UDP source stays known after the relay last
	// sent it a success response or relayed data; zero means
	// DefaultKnownFor.
	KnownFor time.Duration

	// Logger receives the relay's logs (refusals at Debug); nil discards.
	Logger *slog.Logger

	// now is the clock; nil means time.Now. Tests set it.
	now func() time.Time
}

// Server is a running relay. Its methods are safe for concurrent use.
type Server struct {
	logs *slogFactory
	cfg  Config
	log  *slog.Logger
	turn *turn.Server

	udp      net.PacketConn
	tcp, tls net.Listener
	// gate holds the TCP and TLS connections (caps, timeouts, framing),
	// closed on Close; intake drains the UDP socket for the TURN library.
	gate    *connGate
	intake  *intake
	refused listenerCounters
	dropped intakeCounters

	users users

	// own are the relay's own addresses (ownAddresses).
	own map[netip.Addr]bool

	// conns are the live relay sockets, closed on Close, also by their
	// port, by their client's connection (connKey), and counted by their
	// client's network (clientPrefix).
	connsMu  sync.Mutex
	conns    map[*relayConn]struct{}
	byPort   map[int]*relayConn
	byKey    map[string]*relayConn
	byClient map[netip.Prefix]int
	// reserved are the Allocate requests past the QuotaHandler and not
	// yet made or failed, by client (srcKey), each holding its place in
	// byClient: the library may handle several clients' requests at once
	// (a goroutine per TCP connection).
	reserved map[string]netip.Prefix

	reasons            refusals
	bytesUnpermitted   atomic.Int64 // sent to an allocation by peers without a permission
	allocations        atomic.Int64
	allocationsTotal   atomic.Int64
	allocationsExpired atomic.Int64
	bytesRelayed       atomic.Int64
	bytesOverQuota     atomic.Int64
	bytesOverRate      atomic.Int64

	stop      chan struct{}
	sweeper   sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// New starts a relay listening as cfg says.
func New(cfg Config) (*Server, error) {
	if cfg.Secret.IsZero() {
		return nil, ErrNoSecret
	}
	if cfg.Realm == "" {
		cfg.Realm = DefaultRealm
	}
	if cfg.MaxTTL <= 0 {
		cfg.MaxTTL = DefaultMaxTTL
	}
	if cfg.MaxAllocationsPerUser <= 0 {
		cfg.MaxAllocationsPerUser = DefaultMaxAllocationsPerUser
	}
	if cfg.MaxBytesPerUser <= 0 {
		cfg.MaxBytesPerUser = DefaultMaxBytesPerUser
	}
	capDefaults(&cfg)
	if cfg.now == nil {
		cfg.now = time.Now
	}
	cfg = cfg.withListenerDefaults()
	if !cfg.RelayBind.IsValid() {
		cfg.RelayBind = netip.IPv4Unspecified()
	}
	if !cfg.PublicIP.IsValid() {
		cfg.PublicIP = cfg.RelayBind
	}
	if cfg.PublicIP.IsUnspecified() {
		return nil, ErrNoPublicIP
	}
	if cfg.TLSAddr != "" && cfg.TLSListener == nil && cfg.TLSConfig == nil {
		return nil, ErrNoTLSConfig
	}
	own, err := ownAddresses(cfg)
	if err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		logs:     newSlogFactory(log, time.Now),
		cfg:      cfg,
		log:      log,
		own:      own,
		users:    users{m: make(map[string]*user)},
		conns:    make(map[*relayConn]struct{}),
		byPort:   make(map[int]*relayConn),
		byKey:    make(map[string]*relayConn),
		byClient: make(map[netip.Prefix]int),
		reserved: make(map[string]netip.Prefix),
		stop:     make(chan struct{}),
	}
	s.gate = newConnGate(cfg, log, &s.refused)
	if err := s.listen(); err != nil {
		s.closeSockets()
		return nil, err
	}

	gen := &relayAddresses{srv: s}
	tc := turn.ServerConfig{
		Realm:         cfg.Realm,
		AuthHandler:   s.authenticate,
		QuotaHandler:  s.quota,
		LoggerFactory: s.logs,
		EventHandler: turn.EventHandler{
			OnAuth:              s.onAuth,
			OnAllocationCreated: s.onAllocationCreated,
			OnAllocationDeleted: s.onAllocationDeleted,
			OnAllocationError:   s.onAllocationError,
			OnPermissionCreated: func(_, _ net.Addr, _, _, _ string, relayAddr net.Addr, peer net.IP) {
				s.permission(relayAddr, peer, 1)
			},
			OnPermissionDeleted: func(_, _ net.Addr, _, _, _ string, relayAddr net.Addr, peer net.IP) {
				s.permission(relayAddr, peer, -1)
			},
			OnChannelCreated: func(_, _ net.Addr, _, _, _ string, relayAddr, peer net.Addr, number uint16) {
				s.channel(relayAddr, peer, number, true)
			},
			OnChannelDeleted: func(_, _ net.Addr, _, _, _ string, relayAddr, peer net.Addr, number uint16) {
				s.channel(relayAddr, peer, number, false)
			},
		},
	}
	// The library reads clients through intakes, which tell the
	// PermissionHandler the request it is asked about (requests.go).
	if s.udp != nil {
		in := &packetIntake{PacketConn: s.udp}
		tc.PacketConnConfigs = append(tc.PacketConnConfigs, turn.PacketConnConfig{
			PacketConn: in, RelayAddressGenerator: gen, PermissionHandler: s.permitter(in),
		})
	}
	for _, l := range []net.Listener{s.tcp, s.tls} {
		if l != nil {
			in := newStreamIntake(l)
			tc.ListenerConfigs = append(tc.ListenerConfigs, turn.ListenerConfig{
				Listener: in, RelayAddressGenerator: gen, PermissionHandler: s.permitter(in),
			})
		}
	}
	if len(tc.PacketConnConfigs) == 0 && len(tc.ListenerConfigs) == 0 {
		return nil, ErrNoListener
	}
	ts, err := turn.NewServer(tc)
	if err != nil {
		s.closeSockets()
		return nil, fmt.Errorf("relay: %w", err)
	}
	s.turn = ts
	s.sweeper.Add(2)
	go s.sweep()
	go s.expire()
	return s, nil
}

// listen opens the sockets cfg names: the TCP and TLS listeners are
// guarded (connection caps, timeouts, framing, an accept loop that rides
// out EMFILE), and the UDP socket drained through an intake.
func (s *Server) listen() error {
	cfg := s.cfg
	udp := cfg.PacketConn
	if cfg.Listener != nil {
		s.tcp = s.guard(cfg.Listener, nil)
	}
	if cfg.TLSListener != nil {
		s.tls = s.guard(cfg.TLSListener, nil)
	}
	if cfg.Addr != "" && udp == nil && s.tcp == nil {
		u, tcp, err := listenUDPAndTCP(cfg.Addr)
		if err != nil {
			return err
		}
		udp, s.tcp = u, s.guard(tcp, nil)
	}
	if udp != nil {
		s.udp = s.newIntake(udp)
	}
	if cfg.TLSAddr != "" && s.tls == nil {
		l, err := net.Listen("tcp", cfg.TLSAddr)
		if err != nil {
			return fmt.Errorf("relay: TLS: %w", err)
		}
		// Guarded beneath TLS, which the guard runs itself, so that
		// refused connections cost no handshake and the guard frames
		// the TURN stream inside.
		s.tls = s.guard(l, cfg.TLSConfig)
	}
	return nil
}

// guard wraps l (TLS with tlsConfig, when set) in the relay's connection
// gate.
func (s *Server) guard(l net.Listener, tlsConfig *tls.Config) *guardedListener {
	return newGuardedListener(l, s.gate, tlsConfig)
}

// listenUDPAndTCP listens on addr over UDP and TCP with the same port,
// retrying a few times when the port is 0 and the one UDP got is taken
// for TCP.
func listenUDPAndTCP(addr string) (net.PacketConn, net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, nil, fmt.Errorf("relay: %w", err)
	}
	for try := 0; ; try++ {
		udp, err := net.ListenPacket("udp", addr)
		if err != nil {
			return nil, nil, fmt.Errorf("relay: UDP: %w", err)
		}
		got := strconv.Itoa(udp.LocalAddr().(*net.UDPAddr).Port)
		tcp, err := net.Listen("tcp", net.JoinHostPort(host, got))
		if err == nil {
			return udp, tcp, nil
		}
		udp.Close()
		if port != "0" || try == 4 {
			return nil, nil, fmt.Errorf("relay: TCP: %w", err)
		}
	}
}

// Addr is the address the relay listens on for UDP, or nil.
func (s *Server) Addr() net.Addr {
	if s.udp == nil {
		return nil
	}
	return s.udp.LocalAddr()
}

// TCPAddr is the address the relay listens on for TCP, or nil.
func (s *Server) TCPAddr() net.Addr {
	if s.tcp == nil {
		return nil
	}
	return s.tcp.Addr()
}

// TLSAddr is the address the relay listens on for TLS, or nil.
func (s *Server) TLSAddr() net.Addr {
	if s.tls == nil {
		return nil
	}
	return s.tls.Addr()
}

// Close stops the relay: it closes its sockets, the clients' TCP and TLS
// connections, and every allocation's relay socket.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		s.sweeper.Wait()
		s.closeErr = s.turn.Close()
		s.gate.closeConns()
		s.connsMu.Lock()
		conns := make([]*relayConn, 0, len(s.conns))
		for c := range s.conns {
			conns = append(conns, c)
		}
		s.connsMu.Unlock()
		for _, c := range conns {
			c.Close()
		}
		s.logs.flush()
	})
	return s.closeErr
}

// closeSockets closes what listen opened, when New fails.
func (s *Server) closeSockets() {
	if s.udp != nil {
		s.udp.Close()
	}
	for _, l := range []net.Listener{s.tcp, s.tls} {
		if l != nil {
			l.Close()
		}
	}
}

func (s *Server) sweep() {
	s.every(sweepInterval, func() { s.users.sweep(s.cfg.now()) })
}

// authenticate is the TURN AuthHandler: it returns the key a request from
// the holder of a credential for ra.Username has signed with. Every
// request needs an unexpired credential: an allocation ends when its
// credential expires (expire), and nothing is done for it after.
func (s *Server) authenticate(ra *turn.RequestAttributes) (userID string, key []byte, ok bool) {
	password, err := iceservers.Check(s.cfg.Secret, ra.Username, s.cfg.now(), s.cfg.MaxTTL)
	if err != nil {
		if errors.Is(err, iceservers.ErrExpired) {
			s.refuse(reasonExpired)
		} else {
			s.refuse(reasonAuth)
		}
		s.log.Debug("relay refused credential", "client", ra.SrcAddr, "method", ra.Method, "username", ra.Username, "err", err)
		return "", nil, false
	}
	return ra.Username, turn.GenerateAuthKey(ra.Username, s.cfg.Realm, password), true
}

// onAuth counts requests whose integrity did not check out: signed with
// another password than the username's (a forged credential, or one
// minted with another secret).
func (s *Server) onAuth(src, _ net.Addr, _, username, _ string, method string, verdict bool) {
	if !verdict {
		s.refuse(reasonAuth)
		s.log.Debug("relay refused forged credential", "client", src, "method", method, "username", username)
	}
}

// quota is the TURN QuotaHandler: a username may hold
// MaxAllocationsPerUser allocations, and none once over its byte quota;
// clients at one address (or IPv6 /64) MaxAllocationsPerAddress; the relay
// MaxAllocations.
func (s *Server) quota(username, _ string, src net.Addr) bool {
	n, bytes := s.users.usage(username)
	prefix := clientPrefix(src)
	s.connsMu.Lock()
	atAddress := s.byClient[prefix]
	r := reasonNone
	switch {
	case n >= s.cfg.MaxAllocationsPerUser || bytes > s.cfg.MaxBytesPerUser:
		r = reasonUserQuota
	case atAddress >= s.cfg.MaxAllocationsPerAddress:
		r = reasonAllocationsPerAddress
	case s.allocations.Load() >= int64(s.cfg.MaxAllocations):
		r = reasonAllocationsTotal
	default:
		// Hold the place until the allocation is made or fails.
		if _, again := s.reserved[srcKey(src)]; !again {
			s.byClient[prefix]++
			s.reserved[srcKey(src)] = prefix
		}
	}
	s.connsMu.Unlock()
	if r != reasonNone {
		s.refuse(r)
		s.log.Debug("relay refused allocation", "client", src, "username", username, "reason", r,
			"allocations", n, "bytes", bytes, "at_address", atAddress)
		return false
	}
	return true
}

// onAllocationCreated ties the new allocation's relay socket to its
// client's connection, for the PermissionHandler, and counts it against
// the client's address.
func (s *Server) onAllocationCreated(src, dst net.Addr, protocol, username, _ string, relayAddr net.Addr, _ int) {
	s.allocationsTotal.Add(1)
	s.log.Debug("relay allocation", "client", src, "protocol", protocol, "username", username, "relayed", relayAddr)
	ua, ok := relayAddr.(*net.UDPAddr)
	if !ok {
		return
	}
	s.connsMu.Lock()
	defer s.connsMu.Unlock()
	prefix, reserved := s.reserved[srcKey(src)]
	delete(s.reserved, srcKey(src))
	c := s.byPort[ua.Port]
	if c == nil || c.key != "" {
		if reserved {
			s.release(prefix)
		}
		return
	}
	c.key, c.client = connKey(dst, src), clientPrefix(src)
	s.byKey[c.key] = c
	if !reserved {
		s.byClient[c.client]++
	}
}

// onAllocationError gives back the place an Allocate request from src
// held for its client's address, when the allocation failed after the
// QuotaHandler let it through (the library reports every request that
// failed so).
func (s *Server) onAllocationError(src, _ net.Addr, _, message string) {
	s.connsMu.Lock()
	defer s.connsMu.Unlock()
	if prefix, ok := s.reserved[srcKey(src)]; ok {
		delete(s.reserved, srcKey(src))
		s.release(prefix)
		s.log.Debug("relay allocation failed", "client", src, "err", message)
	}
}

// release counts one allocation less against a client network; connsMu
// held.
func (s *Server) release(p netip.Prefix) {
	if s.byClient[p]--; s.byClient[p] <= 0 {
		delete(s.byClient, p)
	}
}

// srcKey names a client's address with its network (UDP and TCP clients
// may share one).
func srcKey(src net.Addr) string { return src.Network() + " " + src.String() }

func (s *Server) onAllocationDeleted(src, _ net.Addr, protocol, username, _ string) {
	s.log.Debug("relay allocation ended", "client", src, "protocol", protocol, "username", username)
}

// remember and forget track the live relay sockets, by their port too.
func (s *Server) remember(c *relayConn) {
	s.connsMu.Lock()
	s.conns[c] = struct{}{}
	s.byPort[c.LocalAddr().(*net.UDPAddr).Port] = c
	s.connsMu.Unlock()
}

func (s *Server) forget(c *relayConn) {
	s.connsMu.Lock()
	delete(s.conns, c)
	if port := c.LocalAddr().(*net.UDPAddr).Port; s.byPort[port] == c {
		delete(s.byPort, port)
	}
	if c.key != "" {
		if s.byKey[c.key] == c {
			delete(s.byKey, c.key)
		}
		s.release(c.client)
	}
	s.connsMu.Unlock()
}

// channel records that the allocation at relayAddr bound (add) or lost a
// channel.
func (s *Server) channel(relayAddr, peer net.Addr, number uint16, add bool) {
	ua, ok := relayAddr.(*net.UDPAddr)
	if !ok {
		return
	}
	s.connsMu.Lock()
	c := s.byPort[ua.Port]
	s.connsMu.Unlock()
	if c != nil {
		c.bindChannel(number, peer, add)
	}
}

// permission records that the allocation at relayAddr gained (delta 1) or
// lost (-1) a permission for peer.
func (s *Server) permission(relayAddr net.Addr, peer net.IP, delta int) {
	ua, ok := relayAddr.(*net.UDPAddr)
	ip, ok2 := netip.AddrFromSlice(peer)
	if !ok || !ok2 {
		return
	}
	s.connsMu.Lock()
	c := s.byPort[ua.Port]
	s.connsMu.Unlock()
	if c != nil {
		c.permit(ip.Unmap(), delta)
	}
}

// relayAddresses makes the allocations' relay sockets.
type relayAddresses struct {
	srv *Server
}

func (g *relayAddresses) Validate() error { return nil }

// AllocatePacketConn opens a UDP relay socket on RelayBind for a new
// allocation, counted against its username's quota and the relay's
// MaxAllocations, with its credential's scope and its rate.
func (g *relayAddresses) AllocatePacketConn(c turn.AllocateListenerConfig) (net.PacketConn, net.Addr, error) {
	s := g.srv
	if s.allocations.Add(1) > int64(s.cfg.MaxAllocations) {
		s.allocations.Add(-1)
		s.refuse(reasonAllocationsTotal)
		return nil, nil, fmt.Errorf("%w: %d", ErrCapacity, s.cfg.MaxAllocations)
	}
	scope, err := iceservers.Scope(c.UserID)
	if err != nil {
		s.allocations.Add(-1)
		s.refuse(reasonAuth)
		return nil, nil, fmt.Errorf("relay: %w", err)
	}
	u, ok := s.users.acquire(c.UserID, s.cfg.MaxAllocationsPerUser)
	if !ok {
		s.allocations.Add(-1)
		s.refuse(reasonUserQuota)
		return nil, nil, fmt.Errorf("%w: %s", ErrQuota, c.UserID)
	}
	bind := net.JoinHostPort(s.cfg.RelayBind.String(), strconv.Itoa(c.RequestedPort))
	conn, err := net.ListenPacket(c.Network, bind)
	if err != nil {
		s.allocations.Add(-1)
		s.users.release(u)
		return nil, nil, fmt.Errorf("relay: relay socket: %w", err)
	}
	now := time.Now()
	rc := &relayConn{PacketConn: conn, srv: s, user: u, scope: scope,
		in:  newRateBucket(s.cfg.RateBytesPerSecond, s.cfg.RateBurstBytes, now),
		out: newRateBucket(s.cfg.RateBytesPerSecond, s.cfg.RateBurstBytes, now)}
	s.remember(rc)
	port := conn.LocalAddr().(*net.UDPAddr).Port
	return rc, &net.UDPAddr{IP: s.cfg.PublicIP.AsSlice(), Port: port}, nil
}

// AllocateListener refuses TCP allocations (RFC 6062).
func (g *relayAddresses) AllocateListener(c turn.AllocateListenerConfig) (net.Listener, net.Addr, error) {
	g.srv.refuse(reasonTCP)
	g.srv.log.Debug("relay refused TCP allocation", "username", c.UserID)
	return nil, nil, ErrTCPRelay
}

// AllocateConn refuses TCP connections to peers (RFC 6062 Connect).
func (g *relayAddresses) AllocateConn(c turn.AllocateConnConfig) (net.Conn, error) {
	g.srv.refuse(reasonTCP)
	return nil, ErrTCPRelay
}
