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
	"strconv"
	"sync"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/netcode/transport"
)

// Defaults used for zero fields of [ServerConfig].
const (
	DefaultMaxSessions    = 64
	DefaultMaxBodyBytes   = 64 << 10
	DefaultConnectTimeout = 10 * time.Second
	// gatherTimeout bounds the server's own ICE gathering per offer; with
	// the UDP mux it takes microseconds.
	gatherTimeout = 5 * time.Second
)

// ServerConfig configures [NewServer]. Zero fields take the defaults.
type ServerConfig struct {
	ConnConfig

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

	// PublicIPs, if set, replace the addresses of the host candidates (1:1
	// NAT, e.g. a cloud VM whose public address is not on an interface).
	PublicIPs []string

	// MaxSessions caps the concurrent sessions, counting those still
	// negotiating; an offer beyond it gets 503 "server full".
	MaxSessions int

	// MaxBodyBytes caps the offer's body; beyond it: 413 "offer too large".
	MaxBodyBytes int64

	// ConnectTimeout is how long a peer has, after the answer, to open all
	// four channels; a peer that does not is closed and never accepted.
	ConnectTimeout time.Duration

	// Logger receives the server's log records; nil means slog.Default().
	Logger *slog.Logger

	// SettingEngine, if set, adjusts the pion SettingEngine after this
	// package's settings (for example SetNet for a vnet test network). It
	// must not undo DetachDataChannels or the UDP mux.
	SettingEngine func(*webrtc.SettingEngine)
}

// Server accepts WebRTC connections: its ServeHTTP answers offers, and
// Accept returns the connections whose four channels are open and valid.
type Server struct {
	cfg   ServerConfig
	log   *slog.Logger
	api   *webrtc.API
	pconn net.PacketConn
	mux   ice.UDPMux

	mu       sync.Mutex
	closed   bool
	sessions map[*conn]struct{} // every live session, negotiating or accepted
	acceptQ  []*conn
	notify   chan struct{} // capacity 1: something was queued
	done     chan struct{} // closed by Close
}

// NewServer listens on the UDP port and returns a server ready for offers.
func NewServer(cfg ServerConfig) (*Server, error) {
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	cfg.ConnConfig = cfg.ConnConfig.withDefaults()
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

	pionLog := pionLoggerFactory{log: log}
	mux := ice.NewUDPMuxDefault(ice.UDPMuxParams{
		UDPConn: pconn,
		Logger:  pionLog.NewLogger("udpmux"),
	})

	se := baseSettingEngine(log, cfg.IncludeLoopback)
	se.SetICEUDPMux(mux)
	if len(cfg.PublicIPs) > 0 {
		err := se.SetICEAddressRewriteRules(webrtc.ICEAddressRewriteRule{
			External:        cfg.PublicIPs,
			AsCandidateType: webrtc.ICECandidateTypeHost,
			Mode:            webrtc.ICEAddressRewriteReplace,
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

	s := &Server{
		cfg:      cfg,
		log:      log,
		api:      newAPI(se),
		pconn:    pconn,
		mux:      mux,
		sessions: make(map[*conn]struct{}),
		notify:   make(chan struct{}, 1),
		done:     make(chan struct{}),
	}
	log.Info("webrtc server listening", "udp", pconn.LocalAddr().String())
	return s, nil
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

// httpError writes a short text error.
func httpError(w http.ResponseWriter, msg string, code int) {
	http.Error(w, msg, code)
}

// ServeHTTP is the signalling endpoint: it takes a POSTed JSON offer and
// answers with a JSON answer once the server's candidates are gathered.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpError(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			httpError(w, "offer too large", http.StatusRequestEntityTooLarge)
		} else {
			httpError(w, "bad request", http.StatusBadRequest)
		}
		return
	}
	var offer sdpMessage
	if err := json.Unmarshal(data, &offer); err != nil || offer.Type != "offer" {
		httpError(w, "not an offer", http.StatusBadRequest)
		return
	}
	log := s.log.With("remote", r.RemoteAddr)

	pc, err := s.api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		log.Warn("new peer connection", "err", err)
		httpError(w, "internal error", http.StatusInternalServerError)
		return
	}
	c := newConn(pc, s.cfg.ConnConfig, log)
	// The peer will have ConnectTimeout to open its channels; the timer is
	// armed once the session is registered.
	timer := time.AfterFunc(time.Duration(math.MaxInt64), func() {
		select {
		case <-c.ready:
		default:
			c.fail(fmt.Errorf("rejecting peer: %w (%v)", ErrConnectTimeout, s.cfg.ConnectTimeout))
		}
	})
	c.onReady = func() {
		timer.Stop()
		log.Info("peer connected")
		s.enqueue(c)
	}
	if msg, code := s.addSession(c, func() { timer.Stop() }); code != 0 {
		timer.Stop()
		c.Close()
		httpError(w, msg, code)
		return
	}
	// From here on, c.Close releases the session.
	timer.Reset(s.cfg.ConnectTimeout)
	c.watchState()
	pc.OnDataChannel(func(dc *webrtc.DataChannel) {
		ch, err := checkChannel(dc)
		if err == nil {
			err = c.setChannel(ch, dc)
		}
		if err != nil {
			c.fail(fmt.Errorf("rejecting peer: %w", err))
		}
	})

	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer.SDP}); err != nil {
		c.Close()
		if s.isClosed() {
			httpError(w, "server closed", http.StatusServiceUnavailable)
			return
		}
		log.Debug("malformed offer", "err", err)
		httpError(w, "malformed SDP: "+shorten(err.Error(), 120), http.StatusBadRequest)
		return
	}
	answer, err := pc.CreateAnswer(nil)
	if err != nil {
		c.Close()
		log.Debug("cannot answer offer", "err", err)
		httpError(w, "malformed SDP: "+shorten(err.Error(), 120), http.StatusBadRequest)
		return
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(answer); err != nil {
		c.Close()
		log.Warn("set answer", "err", err)
		httpError(w, "internal error", http.StatusInternalServerError)
		return
	}
	gatherCtx, cancel := context.WithTimeout(r.Context(), gatherTimeout)
	defer cancel()
	select {
	case <-gathered:
	case <-c.done:
		httpError(w, "server closed", http.StatusServiceUnavailable)
		return
	case <-gatherCtx.Done():
		c.Close()
		log.Warn("gathering candidates", "err", gatherCtx.Err())
		httpError(w, "timeout", http.StatusServiceUnavailable)
		return
	}

	body, _ := json.Marshal(sdpMessage{Type: "answer", SDP: pc.LocalDescription().SDP})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(body)
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// addSession registers c, or returns the error to answer with. When c ends,
// it runs cleanup and frees the session's slot.
func (s *Server) addSession(c *conn, cleanup func()) (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "server closed", http.StatusServiceUnavailable
	}
	if len(s.sessions) >= s.cfg.MaxSessions {
		return "server full", http.StatusServiceUnavailable
	}
	s.sessions[c] = struct{}{}
	c.onClosed = func() {
		cleanup()
		s.mu.Lock()
		delete(s.sessions, c)
		s.mu.Unlock()
	}
	return "", 0
}

// enqueue hands a ready connection to Accept.
func (s *Server) enqueue(c *conn) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.acceptQ = append(s.acceptQ, c)
	s.mu.Unlock()
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// Accept returns the next connection whose four channels are open and
// valid. It fails with ctx's error or, after Close, [ErrServerClosed].
func (s *Server) Accept(ctx context.Context) (transport.Conn, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, ErrServerClosed
		}
		for len(s.acceptQ) > 0 {
			c := s.acceptQ[0]
			s.acceptQ[0] = nil
			s.acceptQ = s.acceptQ[1:]
			if c.closed.Load() {
				continue
			}
			more := len(s.acceptQ) > 0
			s.mu.Unlock()
			if more { // let another Accept take the next one
				select {
				case s.notify <- struct{}{}:
				default:
				}
			}
			return c, nil
		}
		s.mu.Unlock()
		select {
		case <-s.notify:
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
	s.acceptQ = nil
	s.mu.Unlock()

	var wg sync.WaitGroup
	for _, c := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Close()
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
		return 0, fmt.Errorf("%w: unknown label %q", ErrBadChannel, shorten(dc.Label(), 40))
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
