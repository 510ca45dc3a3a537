//go:build js

package webrtc

import (
	"fmt"
	"log/slog"
	"syscall/js"

	"github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/netcode/transport"
)

// platformConn holds what a browser connection needs beyond conn: the
// JavaScript callbacks to release on close.
type platformConn struct {
	funcs []js.Func // guarded by conn.mu
}

// prepare installs the channel's message handler as soon as it exists, so
// that no message can arrive before it. The handler runs synchronously in
// the browser's event order (pion's OnMessage would start a goroutine per
// message, which can reorder them) and copies each message into the queue.
func (c *conn) prepare(ch transport.Channel, dc *webrtc.DataChannel) error {
	v := dc.JSValue()
	v.Set("binaryType", "arraybuffer")
	uint8Array := js.Global().Get("Uint8Array")
	var scratch []byte // used only by this channel's handler; calls never overlap
	f := js.FuncOf(func(this js.Value, args []js.Value) any {
		data := args[0].Get("data")
		if data.Type() == js.TypeString {
			c.Push(ch, []byte(data.String()))
			return nil
		}
		u8 := uint8Array.New(data)
		n := u8.Get("byteLength").Int()
		if n > transport.MaxMessageSize {
			c.Fail(fmt.Errorf("%w: message of %d bytes on %s", transport.ErrTooLarge, n, ch))
			return nil
		}
		if cap(scratch) < n {
			scratch = make([]byte, n, max(n, 2048))
		}
		scratch = scratch[:n]
		js.CopyBytesToGo(scratch, u8)
		c.Push(ch, scratch)
		return nil
	})
	c.mu.Lock()
	c.funcs = append(c.funcs, f)
	c.mu.Unlock()
	v.Set("onmessage", f)
	dc.OnClose(func() {
		c.Fail(fmt.Errorf("%w: %s channel closed", ErrPeerGone, ch))
	})
	return nil
}

// attach has nothing left to do in the browser.
func (c *conn) attach(transport.Channel, *webrtc.DataChannel) error { return nil }

// closePlatform closes the channels and the PeerConnection and releases the
// message handlers.
func (c *conn) closePlatform() {
	for i := range c.chans {
		if dc := c.chans[i].Load(); dc != nil {
			_ = dc.Close()
			dc.JSValue().Set("onmessage", js.Null())
		}
	}
	if err := c.pc.Close(); err != nil {
		c.log.Debug("close peer connection", "err", err)
	}
	c.mu.Lock()
	funcs := c.funcs
	c.funcs = nil
	c.mu.Unlock()
	for _, f := range funcs {
		f.Release()
	}
}

// newClientAPI returns the browser's API: there is nothing to set.
func newClientAPI(DialConfig, *slog.Logger) *webrtc.API { return webrtc.NewAPI() }

// selectedPath is unknown through pion's js wrapper, which has no
// statistics (the browser build dials with package transport/browser).
func (c *conn) selectedPath() string { return "" }

// iceProgress is the server's question; the js client never asks it.
func (c *conn) iceProgress() bool { return true }
