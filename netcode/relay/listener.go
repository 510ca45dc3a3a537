package relay

import (
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sightline-game/sightline/netcode/ratelimit"
)

// Defaults of the TCP and TLS listeners' Config fields left zero.
const (
	DefaultMaxConnsPerAddr     = 16
	DefaultMaxConns            = 2048
	DefaultIdleTimeout         = 60 * time.Second
	DefaultFirstMessageTimeout = 10 * time.Second
	// DefaultMaxFrame is the TURN library's read buffer (its InboundMTU):
	// it drops a message that fills it and drops the connection of one
	// that does not fit. A game client's largest message is a Send
	// indication or ChannelData frame of one WebRTC datagram (about 1,200
	// bytes) with 4 to 48 bytes of TURN framing around it.
	DefaultMaxFrame = 1600
)

// The accept loop's backoff after a failed Accept (EMFILE, ENFILE,
// ECONNABORTED, ...): it sleeps acceptBackoffMin, doubling up to
// acceptBackoffMax, and retries.
const (
	acceptBackoffMin = 5 * time.Millisecond
	acceptBackoffMax = time.Second
)

// Sizes of the TURN frames over a stream (RFC 8656 section 12.5): a STUN
// message is a 20-byte header and the length its bytes 2-3 give; a
// ChannelData message a 4-byte header and the length its bytes 2-3 give,
// padded to 4 over TCP and TLS.
const (
	stunHeaderLen        = 20
	channelDataHeaderLen = 4
)

// connGate holds the TCP and TLS connections of a relay: how many in all
// and per client (an IPv4 address or an IPv6 /64), and the live ones, to
// close when the relay closes. The TCP and TLS listeners share one gate,
// so the caps count both.
type connGate struct {
	maxPerAddr, max int
	idle, first     time.Duration
	maxFrame        int
	log             *slog.Logger
	counts          *listenerCounters

	mu     sync.Mutex
	perKey map[netip.Addr]int
	conns  map[*guardedConn]struct{}
	closed bool
}

// listenerCounters count what the TCP and TLS listeners refused.
type listenerCounters struct {
	perAddr  atomic.Int64 // connections closed at once: their client held MaxConnsPerAddr
	total    atomic.Int64 // connections closed at once: the relay held MaxConns
	idle     atomic.Int64 // connections closed by IdleTimeout or FirstMessageTimeout
	oversize atomic.Int64 // connections closed announcing a frame over MaxFrame
	badFrame atomic.Int64 // connections closed sending a frame neither STUN nor ChannelData
	accept   atomic.Int64 // failed Accepts retried (EMFILE, ENFILE, ...)
}

func newConnGate(cfg Config, log *slog.Logger, counts *listenerCounters) *connGate {
	return &connGate{
		maxPerAddr: cfg.MaxConnsPerAddr,
		max:        cfg.MaxConns,
		idle:       cfg.IdleTimeout,
		first:      cfg.FirstMessageTimeout,
		maxFrame:   cfg.MaxFrame,
		log:        log,
		counts:     counts,
		perKey:     make(map[netip.Addr]int),
		conns:      make(map[*guardedConn]struct{}),
	}
}

// admit takes a place for a connection from addr, or says why not.
func (g *connGate) admit(addr net.Addr) (netip.Addr, error) {
	key := clientKey(addr)
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.closed:
		return key, net.ErrClosed
	case len(g.conns) >= g.max:
		g.counts.total.Add(1)
		return key, ErrTooManyConns
	case g.perKey[key] >= g.maxPerAddr:
		g.counts.perAddr.Add(1)
		return key, ErrTooManyConnsFromAddr
	}
	g.perKey[key]++
	return key, nil
}

// add records a connection admitted for key; it returns false when the
// relay closed meanwhile.
func (g *connGate) add(c *guardedConn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		g.dropKey(c.key)
		return false
	}
	g.conns[c] = struct{}{}
	return true
}

// release gives back an admitted place that add did not take.
func (g *connGate) release(key netip.Addr) {
	g.mu.Lock()
	g.dropKey(key)
	g.mu.Unlock()
}

func (g *connGate) remove(c *guardedConn) {
	g.mu.Lock()
	if _, ok := g.conns[c]; ok {
		delete(g.conns, c)
		g.dropKey(c.key)
	}
	g.mu.Unlock()
}

func (g *connGate) dropKey(key netip.Addr) {
	if g.perKey[key] <= 1 {
		delete(g.perKey, key)
	} else {
		g.perKey[key]--
	}
}

// closeConns closes every connection and admits no more.
func (g *connGate) closeConns() {
	g.mu.Lock()
	g.closed = true
	conns := make([]*guardedConn, 0, len(g.conns))
	for c := range g.conns {
		conns = append(conns, c)
	}
	g.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// open is how many connections the gate holds.
func (g *connGate) open() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.conns)
}

// clientKey is the client a connection's remote address counts against:
// its IPv4 address, or its IPv6 /64.
func clientKey(addr net.Addr) netip.Addr {
	var ip netip.Addr
	switch a := addr.(type) {
	case *net.TCPAddr:
		ip, _ = netip.AddrFromSlice(a.IP)
	default:
		if ap, err := netip.ParseAddrPort(addr.String()); err == nil {
			ip = ap.Addr()
		}
	}
	return ratelimit.SubscriberAddr(ip)
}

// guardedListener is a TCP or TLS listener of the relay. Its Accept closes
// at once the connections over the gate's caps, wraps the others in a
// guardedConn (TLS too, when tls is set, above the TLS layer so that it
// frames the TURN stream), and rides out failed Accepts: it sleeps with
// backoff and retries, returning only when the listener is closed, so
// that the TURN library's accept loop, which ends at the first error,
// never ends while the relay runs. (Since the TURN library then sees no
// *tls.Conn, its requests carry no TLS state: the relay's authentication
// uses none.)
type guardedListener struct {
	net.Listener
	gate *connGate
	tls  *tls.Config

	closeOnce sync.Once
	done      chan struct{}
}

func newGuardedListener(l net.Listener, gate *connGate, tlsConfig *tls.Config) *guardedListener {
	return &guardedListener{Listener: l, gate: gate, tls: tlsConfig, done: make(chan struct{})}
}

func (l *guardedListener) Accept() (net.Conn, error) {
	backoff := time.Duration(0)
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) || l.isClosed() {
				return nil, err
			}
			if backoff == 0 {
				backoff = acceptBackoffMin
				l.gate.log.Warn("relay accept failed; retrying", "addr", l.Addr(), "err", err)
			} else {
				backoff = min(2*backoff, acceptBackoffMax)
			}
			l.gate.counts.accept.Add(1)
			t := time.NewTimer(backoff)
			select {
			case <-t.C:
			case <-l.done:
				t.Stop()
				return nil, fmt.Errorf("relay: accept: %w", net.ErrClosed)
			}
			continue
		}
		if backoff != 0 {
			l.gate.log.Info("relay accepts again", "addr", l.Addr())
			backoff = 0
		}
		key, err := l.gate.admit(c.RemoteAddr())
		if errors.Is(err, net.ErrClosed) {
			c.Close()
			return nil, err
		}
		if err != nil {
			l.gate.log.Debug("relay refused connection", "client", c.RemoteAddr(), "err", err)
			abort(c)
			continue
		}
		gc := l.gate.wrap(c, key, l.tls)
		if !l.gate.add(gc) {
			c.Close()
			return nil, net.ErrClosed
		}
		return gc, nil
	}
}

func (l *guardedListener) isClosed() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

func (l *guardedListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// abort closes c at once, with a reset rather than an orderly close, so
// that a refused connection holds no socket in TIME_WAIT or FIN_WAIT on
// the relay.
func abort(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.Close()
}

// guardedConn is a client's TCP or TLS connection. It frames the TURN
// stream as it passes to the TURN library: a connection that announces a
// frame over MaxFrame bytes or sends one that is neither STUN nor
// ChannelData is closed, and so is one that completes no frame for
// IdleTimeout (FirstMessageTimeout for its first). The timeouts are read
// deadlines, moved on when a frame completes, so bytes dribbled without
// completing frames do not keep a connection open; and a write that waits
// IdleTimeout for the client to read closes it too.
type guardedConn struct {
	net.Conn
	gate *connGate
	key  netip.Addr

	// Read's state, read by one reader at a time (the TURN library's).
	hdr   [channelDataHeaderLen]byte
	have  int // header bytes of the current frame read so far
	left  int // bytes of the current frame still to come, after its header
	first bool
	err   error // the error the next Read returns

	closeOnce sync.Once
}

func (g *connGate) wrap(c net.Conn, key netip.Addr, tlsConfig *tls.Config) *guardedConn {
	if tlsConfig != nil {
		c = tls.Server(c, tlsConfig)
	}
	gc := &guardedConn{Conn: c, gate: g, key: key, first: true}
	c.SetReadDeadline(time.Now().Add(g.first))
	return gc
}

func (c *guardedConn) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.Conn.Read(p)
	if n > 0 {
		kept, completed, ferr := c.frame(p[:n])
		if completed {
			c.first = false
			c.Conn.SetReadDeadline(time.Now().Add(c.gate.idle))
		}
		if ferr != nil {
			c.err = ferr
			c.Close()
			return kept, nil
		}
	}
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		c.gate.counts.idle.Add(1)
		if c.first {
			err = fmt.Errorf("%w: %w", ErrFirstMessageTimeout, err)
		} else {
			err = fmt.Errorf("%w: %w", ErrIdleTimeout, err)
		}
		c.Close()
	}
	return n, err
}

// frame follows the frames in b, the next bytes of the stream. It returns
// how many of them to pass on (all, or those before a refused header),
// whether a frame completed, and why the connection must close.
func (c *guardedConn) frame(b []byte) (kept int, completed bool, err error) {
	for i := 0; i < len(b); {
		if c.left > 0 {
			take := min(c.left, len(b)-i)
			c.left -= take
			i += take
			if c.left == 0 {
				c.have, completed = 0, true
			}
			continue
		}
		start := i - c.have
		take := min(channelDataHeaderLen-c.have, len(b)-i)
		copy(c.hdr[c.have:], b[i:i+take])
		c.have += take
		i += take
		if c.have < channelDataHeaderLen {
			break
		}
		size, ferr := frameSize(c.hdr, c.gate.maxFrame)
		if ferr != nil {
			if errors.Is(ferr, ErrOversizeFrame) {
				c.gate.counts.oversize.Add(1)
			} else {
				c.gate.counts.badFrame.Add(1)
			}
			c.gate.log.Debug("relay closed connection", "client", c.RemoteAddr(), "err", ferr)
			return max(start, 0), completed, ferr
		}
		c.left = size - channelDataHeaderLen
		if c.left == 0 {
			c.have, completed = 0, true
		}
	}
	return len(b), completed, nil
}

// frameSize is the size of the TURN frame whose first 4 bytes are hdr,
// header included: a STUN message (its first two bits 0) or a ChannelData
// message (channel numbers 0x4000 to 0x7FFF), padded to 4 bytes.
func frameSize(hdr [channelDataHeaderLen]byte, maxFrame int) (int, error) {
	length := int(binary.BigEndian.Uint16(hdr[2:4]))
	var size int
	switch hdr[0] >> 6 {
	case 0:
		size = stunHeaderLen + length
	case 1:
		size = channelDataHeaderLen + (length+3)&^3
	default:
		return 0, fmt.Errorf("%w: first byte %#02x", ErrBadFrame, hdr[0])
	}
	if size > maxFrame {
		return 0, fmt.Errorf("%w: %d bytes, more than %d", ErrOversizeFrame, size, maxFrame)
	}
	return size, nil
}

// Write gives up after IdleTimeout: a client that stops reading its
// answers would otherwise hold the TURN library's reader of its
// connection in Write, beyond the reach of the read deadlines.
func (c *guardedConn) Write(p []byte) (int, error) {
	c.Conn.SetWriteDeadline(time.Now().Add(c.gate.idle))
	n, err := c.Conn.Write(p)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		c.gate.counts.idle.Add(1)
		c.Close()
		return n, fmt.Errorf("%w: not reading: %w", ErrIdleTimeout, err)
	}
	return n, err
}

func (c *guardedConn) Close() error {
	err := net.ErrClosed
	c.closeOnce.Do(func() {
		c.gate.remove(c)
		err = c.Conn.Close()
	})
	return err
}

// withListenerDefaults is cfg with the listeners' and the intake's zero
// fields set to their defaults.
func (cfg Config) withListenerDefaults() Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defDur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	defRate := func(v *float64, d float64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&cfg.MaxConnsPerAddr, DefaultMaxConnsPerAddr)
	def(&cfg.MaxConns, DefaultMaxConns)
	def(&cfg.MaxFrame, DefaultMaxFrame)
	defDur(&cfg.IdleTimeout, DefaultIdleTimeout)
	defDur(&cfg.FirstMessageTimeout, DefaultFirstMessageTimeout)
	if cfg.UDPReadBuffer == 0 {
		cfg.UDPReadBuffer = DefaultUDPReadBuffer
	}
	defRate(&cfg.UnknownRate, DefaultUnknownRate)
	defRate(&cfg.UnknownRatePerAddr, DefaultUnknownRatePerAddr)
	def(&cfg.UnknownBurst, DefaultUnknownBurst)
	def(&cfg.UnknownBurstPerAddr, DefaultUnknownBurstPerAddr)
	defDur(&cfg.KnownFor, DefaultKnownFor)
	return cfg
}
