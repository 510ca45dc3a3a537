package datachan

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
)

// Lifecycle is the part of a connection that does not depend on its WebRTC
// stack: the inbox where received messages wait for the game, the send
// counters, and how the connection ends.
//
// A connection ends once, for the first cause it is given. The transport's
// teardown calls [Lifecycle.StartEnding], which stops the inbox, records the
// cause, stops the disconnection timer and logs the end, and reports whether
// this call is the one that tears down; that call then frees what is the
// transport's own (channels, peer connection, callbacks) and calls
// [Lifecycle.FinishEnding], which closes Done. Every other call returns at
// once, so a Close during an ending in progress does not wait for it.
// Messages that arrived before the end can still be received after Done.
//
// A transport's connection embeds a *Lifecycle, whose Receive, Close, Done
// and Stats are those of [transport.Conn]; its Send begins with CheckSend
// and ends with AfterSend. Safe for concurrent use.
type Lifecycle struct {
	// Sends counts what the connection's Send hands to the network
	// (AfterSend counts it) and what it drops as congested; Stats reports
	// them.
	Sends SendCounters

	inbox             *Inbox
	log               *slog.Logger
	disconnectTimeout time.Duration
	end               func(cause error)

	mu       sync.Mutex
	cause    error
	discTime *time.Timer // pending end of a disconnected state

	closed atomic.Bool   // set, under mu, with cause
	ending atomic.Bool   // set by the one call of StartEnding that tears down
	done   chan struct{} // closed by FinishEnding

	path atomic.Pointer[string] // Stats.Path, once the transport knows it
}

// NewLifecycle returns the lifecycle of a new connection with cfg's
// limits (cfg's defaults apply), logging to log. end is the transport's
// teardown: Close runs it with a nil cause and [Lifecycle.Fail] on a
// goroutine of its own. It must begin with StartEnding and, when that
// returns true, call FinishEnding once its own resources are freed.
func NewLifecycle(cfg Config, log *slog.Logger, end func(cause error)) *Lifecycle {
	cfg = cfg.WithDefaults()
	return &Lifecycle{
		inbox:             NewInbox(cfg),
		log:               log,
		disconnectTimeout: cfg.DisconnectTimeout,
		end:               end,
		done:              make(chan struct{}),
	}
}

// Push queues a copy of p, received on channel ch. An event that finds the
// inbox full even after dropping the unreliable messages ends the
// connection with [ErrEventsOverflow], as Fail does. After StartEnding it
// drops p.
func (l *Lifecycle) Push(ch transport.Channel, p []byte) {
	if !l.inbox.Push(ch, p) {
		l.Fail(fmt.Errorf("%w: %d messages waiting", ErrEventsOverflow, l.inbox.maxLen))
	}
}

// Receive calls fn for every queued message in arrival order. Messages that
// arrived before the connection ended can still be received after Done.
func (l *Lifecycle) Receive(fn func(ch transport.Channel, p []byte)) int {
	return l.inbox.Receive(fn)
}

// CheckSend returns the error Send must return before it tries to send p
// on channel ch: [ErrUnknownChannel] for a channel outside
// [0, transport.NumChannels), [transport.ErrTooLarge] for a message over
// [transport.MaxMessageSize], [transport.ErrClosed] once the connection is
// closed; nil if p may go.
func (l *Lifecycle) CheckSend(ch transport.Channel, p []byte) error {
	switch {
	case ch >= transport.NumChannels:
		return ErrUnknownChannel
	case len(p) > transport.MaxMessageSize:
		return transport.ErrTooLarge
	case l.closed.Load():
		return transport.ErrClosed
	}
	return nil
}

// AfterSend returns what Send returns once the WebRTC stack has taken
// (err nil) or refused (err) a message of n bytes on channel ch: nil, the
// message counted; [transport.ErrClosed] if the connection closed
// meanwhile; otherwise an error wrapping transport.ErrClosed and err, for
// which the connection ends, as Fail does.
func (l *Lifecycle) AfterSend(ch transport.Channel, n int, err error) error {
	if err != nil {
		if l.closed.Load() {
			return transport.ErrClosed
		}
		err = fmt.Errorf("%w: send on %s: %v", transport.ErrClosed, ch, err)
		l.Fail(err)
		return err
	}
	l.Sends.Sent(n)
	return nil
}

// Close ends the connection and waits for the transport's teardown to
// finish. If the connection is already ending (its peer left, the network
// failed, or another Close is at work), Close returns at once instead of
// waiting for that: a match loop that drops a player must not stall on a
// teardown in progress. Done is closed when the connection has ended.
// Close is safe to call more than once and returns nil.
func (l *Lifecycle) Close() error {
	l.end(nil)
	return nil
}

// Done is closed when the connection has ended.
func (l *Lifecycle) Done() <-chan struct{} { return l.done }

// Stats returns the connection's counters. ReceivedMessages counts messages
// taken off the network, including those later dropped from a full receive
// queue (QueueDropped).
func (l *Lifecycle) Stats() transport.Stats {
	st := l.Sends.Stats(l.inbox)
	if p := l.path.Load(); p != nil {
		st.Path = *p
	}
	return st
}

// SetPath records the network path the connection took (see [PathName]),
// which Stats reports from then on.
func (l *Lifecycle) SetPath(path string) { l.path.Store(&path) }

// Closed reports whether the connection is ending or has ended: from then
// on Send refuses and nothing new is attached or opened.
func (l *Lifecycle) Closed() bool { return l.closed.Load() }

// Err returns why the connection ended (nil if by Close or still open).
func (l *Lifecycle) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cause
}

// Fail ends the connection for cause without waiting: it runs the
// transport's teardown on a goroutine of its own, so it is safe to call
// from the WebRTC stack's callbacks and from the connection's own
// goroutines. Once the connection is closed it does nothing.
func (l *Lifecycle) Fail(cause error) {
	if l.closed.Load() {
		return
	}
	go l.end(cause)
}

// PeerState takes a change of the peer connection's state, by its W3C
// RTCPeerConnectionState name (pion's PeerConnectionState.String gives the
// same): "failed" and "closed" end the connection with [ErrPeerGone];
// "disconnected" starts a timer after which, if current still says
// "disconnected", the connection ends; "connected" stops that timer.
func (l *Lifecycle) PeerState(state string, current func() string) {
	l.log.Debug("peer connection state", "state", state)
	switch state {
	case "failed":
		l.Fail(fmt.Errorf("%w: connection failed", ErrPeerGone))
	case "closed":
		l.Fail(fmt.Errorf("%w: connection closed", ErrPeerGone))
	case "disconnected":
		l.mu.Lock()
		if l.discTime == nil && !l.closed.Load() {
			d := l.disconnectTimeout
			l.discTime = time.AfterFunc(d, func() {
				if !l.closed.Load() && current() == "disconnected" {
					l.Fail(fmt.Errorf("%w: disconnected for %v", ErrPeerGone, d))
				}
			})
		}
		l.mu.Unlock()
	case "connected":
		l.mu.Lock()
		if l.discTime != nil {
			l.discTime.Stop()
			l.discTime = nil
		}
		l.mu.Unlock()
	}
}

// StartEnding begins the end of the connection for cause (nil for Close)
// and reports whether this call is the first, the one that must tear the
// connection down and then call FinishEnding. The first call stops the
// inbox, records cause and marks the connection closed, stops the
// disconnection timer and logs the end: at debug level for Close, at info
// for a peer gone ([ErrPeerGone]), as a warning otherwise. Later calls
// return false at once.
func (l *Lifecycle) StartEnding(cause error) bool {
	if !l.ending.CompareAndSwap(false, true) {
		return false
	}
	l.inbox.Stop()
	l.mu.Lock()
	l.cause = cause
	l.closed.Store(true)
	if l.discTime != nil {
		l.discTime.Stop()
		l.discTime = nil
	}
	l.mu.Unlock()

	switch {
	case cause == nil:
		l.log.Debug("connection closed")
	case errors.Is(cause, ErrPeerGone):
		l.log.Info("connection ended", "reason", cause.Error())
	default:
		l.log.Warn("connection ended", "reason", cause.Error())
	}
	return true
}

// FinishEnding closes Done: the connection has ended and freed its
// resources. Only the call of StartEnding that returned true may be
// followed by it, once.
func (l *Lifecycle) FinishEnding() { close(l.done) }
