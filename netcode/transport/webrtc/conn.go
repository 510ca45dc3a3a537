package webrtc

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// conn is a transport.Conn over one PeerConnection and its four channels.
// Both the client and the server use it.
type conn struct {
	pc  *webrtc.PeerConnection
	cfg ConnConfig
	log *slog.Logger

	chans [transport.NumChannels]atomic.Pointer[webrtc.DataChannel]

	// onReady runs once, when all four channels are open; onClosed runs once,
	// when the connection has ended and its resources are freed. Both are
	// set before the PeerConnection can call back and run without locks.
	onReady  func()
	onClosed func()

	inbox *datachan.Inbox // filled by the channels' readers, drained by Receive

	mu       sync.Mutex
	closing  bool // set first thing in shutdown: no more attaching or timers
	cause    error
	openMask uint8
	discTime *time.Timer // pending end of a disconnected state

	closed atomic.Bool
	ending atomic.Bool   // set by the one call of shutdown that tears down
	ready  chan struct{} // closed when all four channels are open
	done   chan struct{} // closed when the connection has ended

	sends datachan.SendCounters

	platformConn
}

var _ transport.Conn = (*conn)(nil)

func newConn(pc *webrtc.PeerConnection, cfg ConnConfig, log *slog.Logger) *conn {
	c := &conn{
		pc:    pc,
		cfg:   cfg.WithDefaults(),
		log:   log,
		inbox: datachan.NewInbox(cfg),
		ready: make(chan struct{}),
		done:  make(chan struct{}),
	}
	return c
}

// watchState ends the connection when the PeerConnection fails, closes, or
// stays disconnected for longer than DisconnectTimeout.
func (c *conn) watchState() {
	c.pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		c.log.Debug("peer connection state", "state", s.String())
		switch s {
		case webrtc.PeerConnectionStateFailed:
			c.fail(fmt.Errorf("%w: connection failed", ErrPeerGone))
		case webrtc.PeerConnectionStateClosed:
			c.fail(fmt.Errorf("%w: connection closed", ErrPeerGone))
		case webrtc.PeerConnectionStateDisconnected:
			c.mu.Lock()
			if c.discTime == nil && !c.closing {
				d := c.cfg.DisconnectTimeout
				c.discTime = time.AfterFunc(d, func() {
					if c.pc.ConnectionState() == webrtc.PeerConnectionStateDisconnected {
						c.fail(fmt.Errorf("%w: disconnected for %v", ErrPeerGone, d))
					}
				})
			}
			c.mu.Unlock()
		case webrtc.PeerConnectionStateConnected:
			c.mu.Lock()
			if c.discTime != nil {
				c.discTime.Stop()
				c.discTime = nil
			}
			c.mu.Unlock()
		}
	})
}

// setChannel records dc as channel ch and arranges for it to be attached
// when it opens. It fails if ch already has a data channel.
func (c *conn) setChannel(ch transport.Channel, dc *webrtc.DataChannel) error {
	if !c.chans[ch].CompareAndSwap(nil, dc) {
		return fmt.Errorf("%w: second %q channel", ErrBadChannel, ch.String())
	}
	if err := c.prepare(ch, dc); err != nil {
		return err
	}
	dc.OnOpen(func() {
		if err := c.attach(ch, dc); err != nil {
			c.fail(fmt.Errorf("webrtc: attach %s channel: %w", ch, err))
			return
		}
		c.mu.Lock()
		if c.closing {
			c.mu.Unlock()
			return
		}
		was := c.openMask
		c.openMask |= 1 << ch
		all := c.openMask == 1<<transport.NumChannels-1 && was != c.openMask
		if all {
			close(c.ready)
		}
		c.mu.Unlock()
		if all && c.onReady != nil {
			c.onReady()
		}
	})
	return nil
}

// push queues a copy of a received message. It runs on the channels' reading
// goroutines (natively) or in the browser's message callbacks.
func (c *conn) push(ch transport.Channel, p []byte) {
	if !c.inbox.Push(ch, p) {
		c.fail(fmt.Errorf("%w: %d messages waiting", ErrEventsOverflow, c.cfg.ReceiveQueueLen))
	}
}

// Send sends p on channel ch without blocking.
func (c *conn) Send(ch transport.Channel, p []byte) error {
	if ch >= transport.NumChannels {
		return ErrUnknownChannel
	}
	if len(p) > transport.MaxMessageSize {
		return transport.ErrTooLarge
	}
	if c.closed.Load() {
		return transport.ErrClosed
	}
	dc := c.chans[ch].Load()
	if dc == nil {
		return transport.ErrClosed
	}
	if c.cfg.Congested(ch, dc.BufferedAmount(), len(p)) {
		c.sends.Congested()
		return transport.ErrCongested
	}
	if err := dc.Send(p); err != nil {
		if c.closed.Load() {
			return transport.ErrClosed
		}
		err = fmt.Errorf("%w: send on %s: %v", transport.ErrClosed, ch, err)
		c.fail(err)
		return err
	}
	c.sends.Sent(len(p))
	return nil
}

// Receive calls fn for every queued message in arrival order. Messages that
// arrived before the connection ended can still be received after Done.
func (c *conn) Receive(fn func(ch transport.Channel, p []byte)) int {
	return c.inbox.Receive(fn)
}

// Close ends the connection and waits until its goroutines have ended. If
// the connection is already ending (its peer left, the network failed, or
// another Close is at work), Close returns at once instead of waiting for
// that: a match loop that drops a player must not stall on a teardown in
// progress. Done is closed when the connection has ended.
func (c *conn) Close() error {
	c.shutdown(nil)
	return nil
}

// Done is closed when the connection has ended.
func (c *conn) Done() <-chan struct{} { return c.done }

// Stats returns the connection's counters. ReceivedMessages counts messages
// taken off the network, including those later dropped from a full receive
// queue (QueueDropped).
func (c *conn) Stats() transport.Stats { return c.sends.Stats(c.inbox) }

// err returns why the connection ended (nil if by Close or still open).
func (c *conn) err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cause
}

// fail ends the connection for cause without waiting; it is safe to call
// from pion's callbacks and from the connection's own goroutines.
func (c *conn) fail(cause error) {
	if c.closed.Load() {
		return
	}
	go c.shutdown(cause)
}

// shutdown ends the connection once: it stops the queue, closes the data
// channels and the PeerConnection, waits for the reading goroutines, closes
// done and runs onClosed. Calls after the first return at once.
func (c *conn) shutdown(cause error) {
	if !c.ending.CompareAndSwap(false, true) {
		return
	}
	c.inbox.Stop()
	c.mu.Lock()
	c.closing = true
	c.cause = cause
	if c.discTime != nil {
		c.discTime.Stop()
		c.discTime = nil
	}
	c.mu.Unlock()
	c.closed.Store(true)

	switch {
	case cause == nil:
		c.log.Debug("connection closed")
	case errors.Is(cause, ErrPeerGone):
		c.log.Info("connection ended", "reason", cause.Error())
	default:
		c.log.Warn("connection ended", "reason", cause.Error())
	}
	c.closePlatform()
	close(c.done)
	if c.onClosed != nil {
		c.onClosed()
	}
}
