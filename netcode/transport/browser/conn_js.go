//go:build js

package browser

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// conn is a transport.Conn over one RTCPeerConnection and its four
// RTCDataChannels.
type conn struct {
	pc    js.Value
	cfg   datachan.Config
	log   *slog.Logger
	inbox *datachan.Inbox

	// chans are set by Dial before the conn is returned or any handler can
	// run, and never change.
	chans [transport.NumChannels]js.Value
	out   [transport.NumChannels]outBuf

	mu       sync.Mutex
	cause    error
	openMask uint8
	discTime *time.Timer // pending end of a disconnected state
	funcs    []js.Func   // every handler, released on close

	closed   atomic.Bool
	ending   atomic.Bool   // set by the one call of shutdown that tears down
	ready    chan struct{} // closed when all four channels are open
	gathered chan struct{} // closed when ICE gathering is complete
	done     chan struct{} // closed when the connection has ended

	sends datachan.SendCounters
}

// outBuf is a channel's send buffer in JavaScript memory, reused by every
// Send: the data channel copies what it is given.
type outBuf struct {
	mu  sync.Mutex
	buf js.Value // a Uint8Array of transport.MaxMessageSize; undefined until the first Send
}

var _ transport.Conn = (*conn)(nil)

func newConn(pc js.Value, cfg datachan.Config, log *slog.Logger) *conn {
	return &conn{
		pc:       pc,
		cfg:      cfg.WithDefaults(),
		log:      log,
		inbox:    datachan.NewInbox(cfg),
		ready:    make(chan struct{}),
		gathered: make(chan struct{}),
		done:     make(chan struct{}),
	}
}

// handle sets v's event handler property name (e.g. "onmessage") to fn,
// kept for release on close.
func (c *conn) handle(v js.Value, name string, fn func(args []js.Value)) {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		fn(args)
		return nil
	})
	c.mu.Lock()
	c.funcs = append(c.funcs, f)
	c.mu.Unlock()
	v.Set(name, f)
}

// watch installs the RTCPeerConnection's handlers: the connection ends when
// it fails, closes, or stays disconnected for longer than
// DisconnectTimeout; gathered is closed when ICE gathering completes.
func (c *conn) watch() {
	c.handle(c.pc, "onconnectionstatechange", func([]js.Value) {
		state := stringOr(c.pc.Get("connectionState"))
		c.log.Debug("peer connection state", "state", state)
		switch state {
		case "failed":
			c.fail(fmt.Errorf("%w: connection failed", ErrPeerGone))
		case "closed":
			c.fail(fmt.Errorf("%w: connection closed", ErrPeerGone))
		case "disconnected":
			c.mu.Lock()
			if c.discTime == nil && !c.closed.Load() {
				d := c.cfg.DisconnectTimeout
				c.discTime = time.AfterFunc(d, func() {
					if !c.closed.Load() && stringOr(c.pc.Get("connectionState")) == "disconnected" {
						c.fail(fmt.Errorf("%w: disconnected for %v", ErrPeerGone, d))
					}
				})
			}
			c.mu.Unlock()
		case "connected":
			c.mu.Lock()
			if c.discTime != nil {
				c.discTime.Stop()
				c.discTime = nil
			}
			c.mu.Unlock()
		}
	})
	c.handle(c.pc, "onicegatheringstatechange", func([]js.Value) { c.checkGathered() })
}

// checkGathered closes gathered once ICE gathering is complete.
func (c *conn) checkGathered() {
	if stringOr(c.pc.Get("iceGatheringState")) != "complete" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.gathered:
	default:
		close(c.gathered)
	}
}

// setChannel records dc as channel ch and installs its handlers before any
// event can reach it. The message handler runs synchronously in the
// browser's order of events and copies each message into the inbox.
func (c *conn) setChannel(ch transport.Channel, dc js.Value) {
	c.chans[ch] = dc
	dc.Set("binaryType", "arraybuffer")
	uint8Array := js.Global().Get("Uint8Array")
	var scratch []byte // used only by this channel's handler; calls never overlap
	c.handle(dc, "onmessage", func(args []js.Value) {
		if c.closed.Load() || len(args) == 0 {
			return
		}
		data := args[0].Get("data")
		if data.Type() == js.TypeString {
			c.push(ch, []byte(data.String()))
			return
		}
		u8 := uint8Array.New(data)
		n := u8.Get("byteLength").Int()
		if n > transport.MaxMessageSize {
			c.fail(fmt.Errorf("%w: message of %d bytes on %s", transport.ErrTooLarge, n, ch))
			return
		}
		if cap(scratch) < n {
			scratch = make([]byte, n, max(n, 2048))
		}
		scratch = scratch[:n]
		js.CopyBytesToGo(scratch, u8)
		c.push(ch, scratch)
	})
	c.handle(dc, "onopen", func([]js.Value) { c.opened(ch) })
	c.handle(dc, "onclose", func([]js.Value) {
		c.fail(fmt.Errorf("%w: %s channel closed", ErrPeerGone, ch))
	})
	c.handle(dc, "onerror", func(args []js.Value) {
		// A close event follows; the error says why.
		if len(args) > 0 {
			if e := args[0].Get("error"); e.Type() == js.TypeObject {
				c.log.Debug("data channel error", "channel", ch.String(), "err", describe(e))
			}
		}
	})
}

// opened marks channel ch open and closes ready when all four are.
func (c *conn) opened(ch transport.Channel) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed.Load() {
		return
	}
	was := c.openMask
	c.openMask |= 1 << ch
	if c.openMask == 1<<transport.NumChannels-1 && was != c.openMask {
		close(c.ready)
	}
}

// push queues a copy of a received message.
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
	dc := c.chans[ch]
	o := &c.out[ch]
	o.mu.Lock()
	defer o.mu.Unlock()
	buffered := dc.Get("bufferedAmount").Float()
	if c.cfg.Congested(ch, uint64(buffered), len(p)) {
		c.sends.Congested()
		return transport.ErrCongested
	}
	if o.buf.IsUndefined() {
		o.buf = js.Global().Get("Uint8Array").New(transport.MaxMessageSize)
	}
	js.CopyBytesToJS(o.buf, p)
	if _, err := call(dc, "send", o.buf.Call("subarray", 0, len(p))); err != nil {
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

// Close ends the connection: it closes the channels and the
// RTCPeerConnection and releases the handlers. It is safe to call more
// than once.
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

// fail ends the connection for cause. It is called from the browser's
// callbacks, so the teardown runs on a goroutine of its own.
func (c *conn) fail(cause error) {
	if c.closed.Load() {
		return
	}
	go c.shutdown(cause)
}

// shutdown ends the connection once: it stops the inbox, detaches and
// releases the handlers, closes the channels and the RTCPeerConnection and
// closes done. Calls after the first return at once.
func (c *conn) shutdown(cause error) {
	if !c.ending.CompareAndSwap(false, true) {
		return
	}
	c.inbox.Stop()
	c.closed.Store(true)
	c.mu.Lock()
	c.cause = cause
	if c.discTime != nil {
		c.discTime.Stop()
		c.discTime = nil
	}
	funcs := c.funcs
	c.funcs = nil
	c.mu.Unlock()

	switch {
	case cause == nil:
		c.log.Debug("connection closed")
	case errors.Is(cause, ErrPeerGone):
		c.log.Info("connection ended", "reason", cause.Error())
	default:
		c.log.Warn("connection ended", "reason", cause.Error())
	}
	// Handlers go first, so that no event reaches a released function.
	for _, dc := range c.chans {
		if dc.IsUndefined() {
			continue
		}
		for _, h := range []string{"onmessage", "onopen", "onclose", "onerror"} {
			dc.Set(h, js.Null())
		}
		if _, err := call(dc, "close"); err != nil {
			c.log.Debug("close data channel", "err", err)
		}
	}
	c.pc.Set("onconnectionstatechange", js.Null())
	c.pc.Set("onicegatheringstatechange", js.Null())
	if _, err := call(c.pc, "close"); err != nil {
		c.log.Debug("close peer connection", "err", err)
	}
	for _, f := range funcs {
		f.Release()
	}
	close(c.done)
}
