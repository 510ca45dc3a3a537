//go:build js && wasm

// Command probe drives package transport/browser in a real browser for
// TestBrowserTransport: it dials the page's origin, greets the server on
// every client channel, echoes every event back in the order received, and
// reports what it saw in window.probe.
package main

import (
	"context"
	"encoding/binary"
	"errors"
	"log/slog"
	"os"
	"syscall/js"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/browser"
)

func main() {
	page := js.Global().Get("probe")
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	origin := js.Global().Get("location").Get("origin").String()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	retries := js.Global().Get("Array").New()
	page.Set("retries", retries)
	conn, err := browser.Dial(ctx, origin+"/signal", browser.Config{
		Version: protocol.Version,
		Logger:  log,
		OnRetryLater: func(wait time.Duration, refusal error) {
			retries.Call("push", wait.Seconds(), refusal.Error())
		},
	})
	if err != nil {
		page.Set("dialError", err.Error())
		select {}
	}
	page.Set("connected", true)
	page.Set("tooLarge", errors.Is(conn.Send(transport.Events, make([]byte, transport.MaxMessageSize+1)), transport.ErrTooLarge))
	page.Set("unknownChannel", errors.Is(conn.Send(transport.NumChannels, []byte{1}), browser.ErrUnknownChannel))
	for _, ch := range []transport.Channel{transport.Inputs, transport.Replicas, transport.Events} {
		if err := conn.Send(ch, []byte("hello "+ch.String())); err != nil {
			page.Set("sendError", err.Error())
		}
	}

	// Events carry their number (big-endian uint32): each must be the next
	// one, and goes straight back. Snapshots are counted.
	var events, snapshots, outOfOrder int
	var echoErr string
	handle := func(ch transport.Channel, p []byte) {
		switch ch {
		case transport.Events:
			if len(p) < 4 || int(binary.BigEndian.Uint32(p)) != events {
				outOfOrder++
			}
			events++
			if err := conn.Send(transport.Events, p); err != nil && echoErr == "" {
				echoErr = err.Error()
			}
		case transport.Snapshots:
			snapshots++
		}
	}
	report := func() {
		page.Set("events", events)
		page.Set("outOfOrder", outOfOrder)
		page.Set("snapshots", snapshots)
		page.Set("echoError", echoErr)
		st := conn.Stats()
		page.Set("sent", st.SentMessages)
		page.Set("received", st.ReceivedMessages)
		page.Set("queueDropped", st.QueueDropped)
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-conn.Done():
			conn.Receive(handle)
			report()
			page.Set("sendAfterDone", errors.Is(conn.Send(transport.Inputs, []byte{1}), transport.ErrClosed))
			page.Set("done", true)
			conn.Close()
			select {} // stay: the page reads window.probe after the end

		case <-tick.C:
			conn.Receive(handle)
			report()
		}
	}
}
