package webrtc

import (
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

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

	// admission is what ServerConfig.Admit said of the peer (nil on a
	// dialled conn, or without Admit).
	admission any

	mu       sync.Mutex
	openMask uint8
	ready    chan struct{} // closed when all four channels are open

	// Lifecycle holds the inbox, filled by the channels' readers and
	// drained by Receive, the counters, and the connection's end.
	*datachan.Lifecycle

	platformConn
}

var _ transport.Conn = (*conn)(nil)

// Admission returns what the server's ServerConfig.Admit said of the peer
// when it admitted it (nil without Admit, or on the dialling end). A game
// server reads it through an interface: conn.(interface{ Admission() any }).
func (c *conn) Admission() any { return c.admission }

func newConn(pc *webrtc.PeerConnection, cfg ConnConfig, log *slog.Logger) *conn {
	c := &conn{
		pc:    pc,
		cfg:   cfg.WithDefaults(),
		log:   log,
		ready: make(chan struct{}),
	}
	c.Lifecycle = datachan.NewLifecycle(cfg, log, c.shutdown)
	return c
}

// watchState ends the connection when the PeerConnection fails, closes, or
// stays disconnected for longer than DisconnectTimeout.
func (c *conn) watchState() {
	current := func() string { return c.pc.ConnectionState().String() }
	c.pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		c.PeerState(s.String(), current)
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
			c.Fail(fmt.Errorf("webrtc: attach %s channel: %w", ch, err))
			return
		}
		c.mu.Lock()
		if c.Closed() {
			c.mu.Unlock()
			return
		}
		was := c.openMask
		c.openMask |= 1 << ch
		all := c.openMask == 1<<transport.NumChannels-1 && was != c.openMask
		c.mu.Unlock()
		if !all {
			return
		}
		// The path is known before the connection counts as ready, so
		// that its first Stats name it.
		c.SetPath(c.selectedPath())
		c.mu.Lock()
		if c.Closed() {
			c.mu.Unlock()
			return
		}
		close(c.ready)
		c.mu.Unlock()
		if c.onReady != nil {
			c.onReady()
		}
	})
	return nil
}

// Send sends p on channel ch without blocking.
func (c *conn) Send(ch transport.Channel, p []byte) error {
	if err := c.CheckSend(ch, p); err != nil {
		return err
	}
	dc := c.chans[ch].Load()
	if dc == nil {
		return transport.ErrClosed
	}
	if c.cfg.Congested(ch, dc.BufferedAmount(), len(p)) {
		c.Sends.Congested()
		return transport.ErrCongested
	}
	return c.AfterSend(ch, len(p), dc.Send(p))
}

// shutdown ends the connection once: it stops the queue (StartEnding),
// closes the data channels and the PeerConnection, waits for the reading
// goroutines, closes Done and runs onClosed. Calls after the first return at
// once.
func (c *conn) shutdown(cause error) {
	if !c.StartEnding(cause) {
		return
	}
	c.closePlatform()
	c.FinishEnding()
	if c.onClosed != nil {
		c.onClosed()
	}
}
