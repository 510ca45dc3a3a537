package conditioner

import (
	"errors"
	"math"
	"sync"
	"time"

	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport"
)

// MaxDelay bounds the Latency and Jitter a [Conn] accepts;
// larger values are clamped to it.
const MaxDelay = 10 * time.Second

// Conditions are what a [Conn] does to each direction of a
// connection. The zero value passes everything straight through.
type Conditions struct {
	// Loss is the share, 0..1, of unreliable messages (snapshots, inputs,
	// replicas) lost, independently of each other. Events are never lost.
	Loss float64
	// BurstLen is the mean length of a run of lost messages: values <= 1
	// lose messages independently, larger ones in bursts (a Gilbert model,
	// see linksim.Config), the way a congested or fading link does.
	BurstLen float64
	// Latency is the one-way delay added to every message, events included:
	// a round trip gets twice as much.
	Latency time.Duration
	// Jitter is an extra one-way delay, drawn uniformly from [0, Jitter]
	// for each unreliable message, which therefore may arrive out of order.
	// Events get no jitter: they stay in order.
	Jitter time.Duration
}

// IsZero reports whether c adds nothing.
func (c Conditions) IsZero() bool { return c == Conditions{} }

// MaxBurst bounds the BurstLen a [Conn] accepts.
const MaxBurst = 1000

// sanitized clamps c into range: Loss to [0, 1] (NaN to 0), BurstLen to
// [0, MaxBurst], delays to [0, MaxDelay].
func (c Conditions) sanitized() Conditions {
	if !(c.Loss > 0) {
		c.Loss = 0
	}
	c.Loss = math.Min(c.Loss, 1)
	if !(c.BurstLen > 0) {
		c.BurstLen = 0
	}
	c.BurstLen = math.Min(c.BurstLen, MaxBurst)
	c.Latency = min(max(c.Latency, 0), MaxDelay)
	c.Jitter = min(max(c.Jitter, 0), MaxDelay)
	return c
}

// conditionQueue is how many messages each direction holds on its way: a
// second of the largest match's traffic and more. (linksim's default of 4096
// could drop a burst taken in one Receive before it is delivered.)
const conditionQueue = 1 << 16

func (c Conditions) link() linksim.Config {
	return linksim.Config{Loss: c.Loss, BurstLen: c.BurstLen, Latency: c.Latency, Jitter: c.Jitter, MaxQueue: conditionQueue}
}

// Conn is a [transport.Conn] that wraps another and makes the link
// worse on purpose, so that a player can feel (and a developer can watch)
// prediction and interpolation at work: each direction gets loss, latency and
// jitter on the unreliable channels (Snapshots, Inputs, Replicas) and latency
// only on Events, which are never dropped or reordered.
//
// Time comes from the clock given to [New] (time.Since(start) in
// the game), and each direction is a seeded linksim.Link. Outgoing messages
// wait in the up-link and are handed to the inner connection when due: on
// every Send and Receive and on [Conn.Pump], which the game calls each
// frame. Receive pulls whatever the inner connection has into the down-link
// and delivers what is due. With zero [Conditions] and nothing still on the
// way, messages pass straight through with no added delay or copy.
//
// Errors of the inner connection for messages that were held back (say
// ErrCongested) cannot be returned to the sender any more; the inner
// connection's Stats count them. An event refused as congested stays at the
// head of the queue and is retried at the next flush, so that events are
// never lost. Stats, Close and Done are the inner connection's. All methods
// are safe for concurrent use.
type Conn struct {
	inner transport.Conn
	clock func() time.Duration

	recvMu    sync.Mutex // serializes Receive; guards batch
	batch     linksim.Batch
	collectFn func(transport.Channel, []byte) bool

	mu     sync.Mutex // guards everything below
	cond   Conditions
	up     *linksim.Path // messages sent, on their way to the inner connection
	down   *linksim.Path // messages received from the inner connection
	pullAt time.Duration // the time of the Receive in progress
	pullFn func(transport.Channel, []byte)
	sendFn func(transport.Channel, []byte) bool
}

var _ transport.Conn = (*Conn)(nil)

// New wraps inner. clock returns the time since some fixed start
// and must not decrease; seed seeds both directions' randomness (each
// derives its own stream), so a run with a simulated clock is reproducible.
// It starts with zero conditions.
func New(inner transport.Conn, clock func() time.Duration, seed uint64) *Conn {
	c := &Conn{inner: inner, clock: clock}
	var err error
	if c.up, err = linksim.NewPath(Conditions{}.link(), seed); err != nil {
		panic(err) // the zero conditions are always a valid configuration
	}
	if c.down, err = linksim.NewPath(Conditions{}.link(), linksim.DeriveSeed(seed)); err != nil {
		panic(err)
	}
	c.pullFn = c.pull
	c.sendFn = c.sendDue
	c.collectFn = c.batch.Add
	return c
}

// Set changes the conditions of both directions from now on. Messages
// already on their way keep their arrival times, except that events never
// overtake earlier events. Out-of-range values are clamped: Loss to [0, 1], BurstLen to
// [0, MaxBurst], Latency and Jitter to [0, MaxDelay].
func (c *Conn) Set(cond Conditions) {
	cond = cond.sanitized()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cond = cond
	// Sanitized conditions are always a valid link configuration.
	_ = c.up.Link().SetConfig(cond.link())
	_ = c.down.Link().SetConfig(cond.link())
}

// Conditions returns the conditions in force.
func (c *Conn) Conditions() Conditions {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cond
}

// LinkStats returns the counters of the simulated up-link (messages sent)
// and down-link (messages received); their Lost counts what the conditioner
// dropped.
func (c *Conn) LinkStats() (up, down linksim.Stats) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.up.Link().Stats(), c.down.Link().Stats()
}

// Send queues p on channel ch, to be handed to the inner connection after
// the conditions' delay (or never, if lost). With zero conditions and no
// earlier message of the channel still held back, it is the inner Send.
func (c *Conn) Send(ch transport.Channel, p []byte) error {
	if ch >= transport.NumChannels {
		return c.inner.Send(ch, p) // let the inner connection refuse it
	}
	if len(p) > transport.MaxMessageSize {
		return transport.ErrTooLarge
	}
	select {
	case <-c.inner.Done():
		return transport.ErrClosed
	default:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clock()
	c.flush(now)
	if ch.Reliable() {
		if c.cond.Latency == 0 && c.up.Events() == 0 {
			return c.inner.Send(ch, p)
		}
	} else if c.cond.IsZero() {
		return c.inner.Send(ch, p)
	}
	// An event is due at now plus the latency, after any earlier event; a
	// message with no delay leaves at once.
	c.up.Send(now, ch, p)
	c.flush(now)
	return nil
}

// Pump hands the inner connection every outgoing message that is due. The
// game calls it once a frame, so that held-back messages leave on time even
// when it neither sends nor receives.
func (c *Conn) Pump() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flush(c.clock())
}

// Receive takes everything the inner connection received into the
// down-link, then calls fn for every message that is due, in arrival order
// (ties: unreliable messages before events), and returns how many. fn runs
// without any lock held, so it may call Send; p is valid only during fn.
func (c *Conn) Receive(fn func(ch transport.Channel, p []byte)) int {
	c.recvMu.Lock()
	defer c.recvMu.Unlock()

	c.mu.Lock()
	now := c.clock()
	c.flush(now)
	if c.cond.IsZero() && !c.down.Pending() {
		c.mu.Unlock()
		return c.inner.Receive(fn)
	}
	c.pullAt = now
	c.inner.Receive(c.pullFn)
	c.batch.Reset()
	c.down.Deliver(now, c.collectFn)
	c.mu.Unlock()

	n := c.batch.Len()
	for i := range n {
		fn(c.batch.At(i))
	}
	return n
}

// Close closes the inner connection.
func (c *Conn) Close() error { return c.inner.Close() }

// Done is the inner connection's.
func (c *Conn) Done() <-chan struct{} { return c.inner.Done() }

// Stats returns the inner connection's counters: what really went over the
// wire, before the conditioner's losses on the way in and after them on the
// way out.
func (c *Conn) Stats() transport.Stats { return c.inner.Stats() }

// flush hands the inner connection every outgoing message due at now, in
// arrival order. mu held.
func (c *Conn) flush(now time.Duration) { c.up.Deliver(now, c.sendFn) }

// sendDue hands one due outgoing message to the inner connection. An event
// it refuses as congested stays queued, and the events behind it too, to be
// retried at the next flush. mu held.
func (c *Conn) sendDue(ch transport.Channel, p []byte) bool {
	err := c.inner.Send(ch, p)
	return !ch.Reliable() || !errors.Is(err, transport.ErrCongested)
}

// pull puts one message the inner connection received on the way in.
// Called with mu held, from inside the inner Receive.
func (c *Conn) pull(ch transport.Channel, p []byte) {
	if ch.Reliable() || (ch < transport.NumChannels && len(p) <= transport.MaxMessageSize) {
		c.down.Send(c.pullAt, ch, p) // an event is due at pullAt plus the latency
	}
}
