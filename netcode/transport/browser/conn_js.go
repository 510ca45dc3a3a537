//go:build js

package browser

import (
	"fmt"
	"log/slog"
	"sync"
	"syscall/js"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// conn is a transport.Conn over one RTCPeerConnection and its four
// RTCDataChannels.
type conn struct {
	pc  js.Value
	cfg datachan.Config
	log *slog.Logger

	// chans are set by Dial before the conn is returned or any handler can
	// run, and never change.
	chans [transport.NumChannels]js.Value
	out   [transport.NumChannels]outBuf

	mu       sync.Mutex
	openMask uint8
	funcs    []js.Func // every handler, released on close

	ready    chan struct{} // closed when all four channels are open
	gathered chan struct{} // closed when ICE gathering is complete

	// candidates counts the local ICE candidates gathered, the last at
	// lastCandidate (under mu).
	candidates    int
	lastCandidate time.Time

	// Lifecycle holds the inbox, filled by the message handlers and
	// drained by Receive, the counters, and the connection's end.
	*datachan.Lifecycle
}

// outBuf is a channel's send buffer in JavaScript memory, reused by every
// Send: the data channel copies what it is given.
type outBuf struct {
	mu  sync.Mutex
	buf js.Value // a Uint8Array of transport.MaxMessageSize; undefined until the first Send
}

var _ transport.Conn = (*conn)(nil)

func newConn(pc js.Value, cfg datachan.Config, log *slog.Logger) *conn {
	c := &conn{
		pc:       pc,
		cfg:      cfg.WithDefaults(),
		log:      log,
		ready:    make(chan struct{}),
		gathered: make(chan struct{}),
	}
	c.Lifecycle = datachan.NewLifecycle(cfg, log, c.shutdown)
	return c
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
	current := func() string { return stringOr(c.pc.Get("connectionState")) }
	c.handle(c.pc, "onconnectionstatechange", func([]js.Value) {
		c.PeerState(current(), current)
	})
	c.handle(c.pc, "onicegatheringstatechange", func([]js.Value) { c.checkGathered() })
	c.handle(c.pc, "onicecandidate", func(args []js.Value) {
		if e := arg0(args); e.Type() == js.TypeObject && e.Get("candidate").Type() == js.TypeObject {
			c.mu.Lock()
			c.candidates++
			c.lastCandidate = time.Now()
			c.mu.Unlock()
		}
	})
}

// candidatesQuiet reports whether a local candidate was gathered and none
// since for at least d.
func (c *conn) candidatesQuiet(d time.Duration) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.candidates > 0 && time.Since(c.lastCandidate) >= d
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
		if c.Closed() || len(args) == 0 {
			return
		}
		data := args[0].Get("data")
		if data.Type() == js.TypeString {
			c.Push(ch, []byte(data.String()))
			return
		}
		u8 := uint8Array.New(data)
		n := u8.Get("byteLength").Int()
		if n > transport.MaxMessageSize {
			c.Fail(fmt.Errorf("%w: message of %d bytes on %s", transport.ErrTooLarge, n, ch))
			return
		}
		if cap(scratch) < n {
			scratch = make([]byte, n, max(n, 2048))
		}
		scratch = scratch[:n]
		js.CopyBytesToGo(scratch, u8)
		c.Push(ch, scratch)
	})
	c.handle(dc, "onopen", func([]js.Value) { c.opened(ch) })
	c.handle(dc, "onclose", func([]js.Value) {
		c.Fail(fmt.Errorf("%w: %s channel closed", ErrPeerGone, ch))
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
	if c.Closed() {
		return
	}
	was := c.openMask
	c.openMask |= 1 << ch
	if c.openMask == 1<<transport.NumChannels-1 && was != c.openMask {
		close(c.ready)
	}
}

// Send sends p on channel ch without blocking.
func (c *conn) Send(ch transport.Channel, p []byte) error {
	if err := c.CheckSend(ch, p); err != nil {
		return err
	}
	dc := c.chans[ch]
	o := &c.out[ch]
	o.mu.Lock()
	defer o.mu.Unlock()
	buffered := dc.Get("bufferedAmount").Float()
	if c.cfg.Congested(ch, uint64(buffered), len(p)) {
		c.Sends.Congested()
		return transport.ErrCongested
	}
	if o.buf.IsUndefined() {
		o.buf = js.Global().Get("Uint8Array").New(transport.MaxMessageSize)
	}
	js.CopyBytesToJS(o.buf, p)
	_, err := call(dc, "send", o.buf.Call("subarray", 0, len(p)))
	return c.AfterSend(ch, len(p), err)
}

// shutdown ends the connection once: it stops the inbox (StartEnding),
// detaches and releases the handlers, closes the channels and the
// RTCPeerConnection and closes Done. Calls after the first return at once.
func (c *conn) shutdown(cause error) {
	if !c.StartEnding(cause) {
		return
	}
	c.mu.Lock()
	funcs := c.funcs
	c.funcs = nil
	c.mu.Unlock()
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
	c.pc.Set("oniceconnectionstatechange", js.Null())
	if _, err := call(c.pc, "close"); err != nil {
		c.log.Debug("close peer connection", "err", err)
	}
	for _, f := range funcs {
		f.Release()
	}
	c.FinishEnding()
}
