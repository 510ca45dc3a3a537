package memory

import (
	"fmt"
	"sync"
	"time"

	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport"
)

// DefaultMaxInFlightBytes is the per-channel, per-direction limit used when
// [Config.MaxInFlightBytes] is 0.
const DefaultMaxInFlightBytes = 1 << 20

// Config describes a connection pair.
type Config struct {
	// ServerToClient and ClientToServer describe the links that carry the
	// unreliable channels of each direction. Their Latency also delays that
	// direction's events. The zero value is a perfect link with no delay.
	ServerToClient, ClientToServer linksim.Config

	// Seed seeds both links (each direction derives its own stream).
	Seed uint64

	// Now returns the current simulated time; it must not decrease.
	// Required.
	Now func() time.Duration

	// MaxInFlightBytes caps, per channel and direction, the bytes sent but
	// not yet received (still on the link or due but not yet taken by
	// Receive). 0 means [DefaultMaxInFlightBytes].
	MaxInFlightBytes int
}

// pair is the state both ends share. Every field of both ends that Send and
// Receive touch is guarded by mu.
type pair struct {
	mu     sync.Mutex
	now    func() time.Duration
	limit  int
	closed bool
	ends   [2]*Conn
}

// direction is one way of the pair: a simulated path for all channels, and
// the bytes of each channel on their way.
type direction struct {
	path     *linksim.Path
	inflight [transport.NumChannels]int // bytes sent and not yet received
}

// Conn is one end of an in-memory pair. It implements [transport.Conn];
// its methods are safe for concurrent use.
type Conn struct {
	p       *pair
	out, in *direction
	done    chan struct{}
	stats   transport.Stats

	recvMu sync.Mutex // serializes Receive; guards batch
	batch  linksim.Batch
	takeFn func(transport.Channel, []byte) bool
}

var _ transport.Conn = (*Conn)(nil)

// NewPair returns the two ends of a new in-memory connection. It fails with
// an error wrapping [ErrConfig] (or linksim.ErrConfig) for a nil Now, a
// negative MaxInFlightBytes or an invalid link configuration.
func NewPair(cfg Config) (server, client *Conn, err error) {
	if cfg.Now == nil {
		return nil, nil, fmt.Errorf("%w: Now is nil", ErrConfig)
	}
	if cfg.MaxInFlightBytes < 0 {
		return nil, nil, fmt.Errorf("%w: MaxInFlightBytes = %d, want >= 0", ErrConfig, cfg.MaxInFlightBytes)
	}
	s2c, err := linksim.NewPath(cfg.ServerToClient, cfg.Seed)
	if err != nil {
		return nil, nil, fmt.Errorf("server to client: %w", err)
	}
	c2s, err := linksim.NewPath(cfg.ClientToServer, linksim.DeriveSeed(cfg.Seed))
	if err != nil {
		return nil, nil, fmt.Errorf("client to server: %w", err)
	}
	p := &pair{now: cfg.Now, limit: cfg.MaxInFlightBytes}
	if p.limit == 0 {
		p.limit = DefaultMaxInFlightBytes
	}
	down := &direction{path: s2c}
	up := &direction{path: c2s}
	server = newConn(p, down, up)
	client = newConn(p, up, down)
	p.ends = [2]*Conn{server, client}
	return server, client, nil
}

func newConn(p *pair, out, in *direction) *Conn {
	c := &Conn{p: p, out: out, in: in, done: make(chan struct{})}
	c.takeFn = c.take
	return c
}

// Send queues a copy of p on channel ch at the current simulated time.
func (c *Conn) Send(ch transport.Channel, p []byte) error {
	if ch >= transport.NumChannels {
		return ErrUnknownChannel
	}
	if len(p) > transport.MaxMessageSize {
		return transport.ErrTooLarge
	}
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	if c.p.closed {
		return transport.ErrClosed
	}
	d := c.out
	if in := d.inflight[ch]; in > 0 && in+len(p) > c.p.limit {
		c.stats.Congested++
		return transport.ErrCongested
	}
	copies := d.path.Send(c.p.now(), ch, p)
	d.inflight[ch] += copies * len(p)
	c.stats.SentMessages++
	c.stats.SentBytes += uint64(len(p))
	return nil
}

// Receive calls fn for every message due at the current simulated time, in
// arrival order (ties: link packets before events), and returns how many.
// fn runs without any lock held, so it may call Send; p is valid only
// during fn.
func (c *Conn) Receive(fn func(ch transport.Channel, p []byte)) int {
	c.recvMu.Lock()
	defer c.recvMu.Unlock()
	c.batch.Reset()

	c.p.mu.Lock()
	if c.p.closed {
		c.p.mu.Unlock()
		return 0
	}
	c.in.path.Deliver(c.p.now(), c.takeFn)
	n := c.batch.Len()
	for i := range n {
		_, p := c.batch.At(i)
		c.stats.ReceivedMessages++
		c.stats.ReceivedBytes += uint64(len(p))
	}
	c.p.mu.Unlock()

	for i := range n {
		fn(c.batch.At(i))
	}
	return n
}

// take moves one due message off the incoming path into the batch. Called
// with p.mu and recvMu held.
func (c *Conn) take(ch transport.Channel, p []byte) bool {
	c.in.inflight[ch] -= len(p)
	return c.batch.Add(ch, p)
}

// Close ends the connection for both ends: both Done channels close, pending
// messages are discarded, Send returns ErrClosed and Receive returns 0. It
// is safe to call more than once.
func (c *Conn) Close() error {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	if c.p.closed {
		return nil
	}
	c.p.closed = true
	for _, e := range c.p.ends {
		close(e.done)
	}
	return nil
}

// Done is closed when either end is closed.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Stats returns this end's counters, with the path "memory".
// ReceivedMessages counts messages handed
// to Receive's fn. QueueDropped stays 0: due messages wait on the link, whose
// in-flight bytes are bounded on the sending side (Congested).
func (c *Conn) Stats() transport.Stats {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	st := c.stats
	st.Path = transport.PathMemory
	return st
}

// NextArrival returns the simulated time at which the next message for this
// end is due, and false if nothing is on its way. An event-driven harness can
// jump the clock straight to it.
func (c *Conn) NextArrival() (time.Duration, bool) {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	if c.p.closed {
		return 0, false
	}
	return c.in.path.NextArrival()
}

// SetLinkConfig changes the link that carries this end's outgoing traffic
// from the next Send on (see linksim.Link.SetConfig), for example to
// simulate a blackout with Loss 1. Its Latency also applies to later events.
func (c *Conn) SetLinkConfig(cfg linksim.Config) error {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	return c.out.path.Link().SetConfig(cfg)
}

// LinkStats returns the counters of the link that carries this end's
// outgoing unreliable traffic.
func (c *Conn) LinkStats() linksim.Stats {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	return c.out.path.Link().Stats()
}
