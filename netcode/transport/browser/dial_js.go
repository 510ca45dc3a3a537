//go:build js

package browser

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"syscall/js"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// Dial connects to the server whose signalling endpoint is signalURL
// (docs/PROTOCOL.md section 1): it creates the four channels (or takes
// those of the connection the page prepared, [Config.Prepared]), waits for ICE
// gathering to complete, posts the offer with fetch, applies the answer and
// returns once all four channels are open. If ctx ends first, or anything
// fails, everything is closed and the error returned (signalling failures
// wrap [ErrSignalling]; a failure also wraps the sentinel of where it
// happened: [ErrUnreachable], [ErrICEFailed] or [ErrChannelsNotOpen]).
// cfg.OnStage hears each stage as it is reached.
//
// Call Dial from a goroutine, never from inside a JavaScript callback: it
// waits on promises and on the browser's events.
func Dial(ctx context.Context, signalURL string, cfg Config) (transport.Conn, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	log = log.With("server", signalURL)
	progress := datachan.NewProgress(cfg.OnStage)
	ctor := js.Global().Get("RTCPeerConnection")
	if ctor.Type() != js.TypeFunction {
		return nil, ErrNoWebRTC
	}
	// The page may have made the peer connection and its offer already,
	// while the game downloaded.
	early, taken := takePrepared(ctx, cfg, log)
	pc := early.pc
	hostOnly := len(cfg.ICEServers)+early.fetched == 0
	if taken {
		if cfg.ICEServersURL != "" {
			progress.Reach(datachan.StageICEServers, strconv.Itoa(early.fetched))
		}
	} else {
		servers := cfg.ICEServers
		if cfg.ICEServersURL != "" {
			fetched := fetchICEServers(ctx, cfg.ICEServersURL, cfg.Token, log)
			servers = append(slices.Clone(servers), fetched...)
			progress.Reach(datachan.StageICEServers, strconv.Itoa(len(fetched)))
		}
		hostOnly = len(servers) == 0
		pcInit := map[string]any{"iceServers": iceServers(servers)}
		if cfg.RelayOnly {
			pcInit["iceTransportPolicy"] = "relay"
		}
		var err error
		if pc, err = construct(ctor, pcInit); err != nil {
			return nil, fmt.Errorf("browser: new RTCPeerConnection: %w", err)
		}
	}
	c := newConn(pc, cfg.Config, log)
	c.candidates, c.lastCandidate = early.candidates, early.lastCandidate
	c.watch()
	c.handle(pc, "oniceconnectionstatechange", func([]js.Value) {
		switch stringOr(pc.Get("iceConnectionState")) {
		case "connected", "completed":
			// The path is read from the statistics, a promise: not
			// inside the browser's callback.
			// ICE may connect before Dial, back from setting the
			// answer, reports the checks: this waits for that.
			go func() {
				if progress.Wait(datachan.StageChecking, c.Done()) {
					progress.Reach(datachan.StageConnected, c.selectedPath(ctx))
				}
			}()
		}
	})
	fail := func(err error) (transport.Conn, error) {
		c.Close()
		return nil, err
	}

	for ch := range transport.Channel(transport.NumChannels) {
		dc := early.chans[ch]
		if !taken {
			var err error
			if dc, err = call(pc, "createDataChannel", ch.String(), channelInit(ch)); err != nil {
				return fail(fmt.Errorf("browser: create %s channel: %w", ch, err))
			}
		}
		c.setChannel(ch, dc)
	}

	if !taken {
		offer, err := awaitCall(ctx, pc, "createOffer")
		if err != nil {
			return fail(fmt.Errorf("browser: create offer: %w", err))
		}
		if _, err := awaitCall(ctx, pc, "setLocalDescription", offer); err != nil {
			return fail(fmt.Errorf("browser: set offer: %w", err))
		}
	}
	c.checkGathered() // gathering may have completed already
	gatherLimit := cfg.GatherTimeout
	if gatherLimit <= 0 {
		gatherLimit = datachan.DefaultGatherTimeout
	}
	gatherTimer := time.NewTimer(gatherLimit)
	defer gatherTimer.Stop()
	// With no ICE servers the only candidates are the host's own, found at
	// once: the offer goes when they have been quiet a moment, not when
	// the browser calls gathering complete (Chromium does hundreds of ms
	// after its last host candidate).
	var quiet <-chan time.Time
	if hostOnly {
		t := time.NewTicker(hostQuietPoll)
		defer t.Stop()
		quiet = t.C
	}
gather:
	for {
		select {
		case <-c.gathered:
			break gather
		case <-quiet:
			if c.candidatesQuiet(hostQuiet) {
				break gather
			}
		case <-gatherTimer.C:
			// An unreachable STUN or TURN server: offer what was found.
			break gather
		case <-c.Done():
			return nil, fmt.Errorf("browser: gathering candidates: %w", c.endErr())
		case <-ctx.Done():
			return fail(fmt.Errorf("browser: gathering candidates: %w", ctx.Err()))
		}
	}

	body := datachan.OfferBody(pc.Get("localDescription").Get("sdp").String(), cfg.Version)
	answer, err := datachan.Exchange(ctx, func(ctx context.Context) (string, error) {
		progress.Reach(datachan.StageOfferSent, "")
		return postOffer(ctx, signalURL, cfg.Token, body)
	}, cfg.OnRetryLater)
	if err != nil {
		return fail(datachan.Posting(err))
	}
	progress.Reach(datachan.StageAnswer, "")
	desc := map[string]any{"type": "answer", "sdp": answer}
	if _, err := awaitCall(ctx, pc, "setRemoteDescription", desc); err != nil {
		return fail(fmt.Errorf("%w: bad answer: %v", ErrSignalling, err))
	}
	// The checks start with the answer's candidates.
	progress.Reach(datachan.StageChecking, datachan.CandidatePaths(answer))

	var iceLimit <-chan time.Time
	if cfg.ICETimeout > 0 {
		t := time.NewTimer(cfg.ICETimeout)
		defer t.Stop()
		iceLimit = t.C
	}
	for {
		select {
		case <-c.ready:
			c.SetPath(c.selectedPath(ctx))
			progress.Reach(datachan.StageConnected, c.Stats().Path)
			progress.Reach(datachan.StageChannelsOpen, c.Stats().Path)
			log.Debug("connected", "path", c.Stats().Path)
			return c, nil
		case <-c.Done():
			return nil, fmt.Errorf("browser: connecting: %w", progress.AfterAnswer(c.endErr()))
		case <-iceLimit:
			iceLimit = nil
			if progress.Reached(datachan.StageConnected) {
				continue // ICE is through: the channels have until ctx ends
			}
			return fail(fmt.Errorf("browser: connecting: %w", progress.AfterAnswer(fmt.Errorf("no working path after %v", cfg.ICETimeout))))
		case <-ctx.Done():
			return fail(fmt.Errorf("browser: opening channels: %w", progress.AfterAnswer(ctx.Err())))
		}
	}
}

// hostQuiet is how long the host candidates of a peer connection without
// ICE servers must have been quiet before Dial offers them, and
// hostQuietPoll how often it looks. Every interface's host candidate comes
// within a few ms of the offer being set.
const (
	hostQuiet     = 100 * time.Millisecond
	hostQuietPoll = 10 * time.Millisecond
)

// awaitCall calls a method of v that returns a promise and awaits it.
func awaitCall(ctx context.Context, v js.Value, method string, args ...any) (js.Value, error) {
	p, err := call(v, method, args...)
	if err != nil {
		return js.Undefined(), err
	}
	return await(ctx, p)
}

// endErr returns why the connection ended, transport.ErrClosed if by Close.
func (c *conn) endErr() error {
	if err := c.Err(); err != nil {
		return err
	}
	return transport.ErrClosed
}

// channelInit returns the RTCDataChannelInit of a channel
// (docs/PROTOCOL.md section 2): unordered with maxRetransmits 0, or
// reliable and ordered for events.
func channelInit(ch transport.Channel) map[string]any {
	if ch.Reliable() {
		return map[string]any{"ordered": true}
	}
	return map[string]any{"ordered": false, "maxRetransmits": 0}
}

// iceServers returns the RTCPeerConnection's iceServers.
func iceServers(servers []ICEServer) []any {
	out := make([]any, 0, len(servers))
	for _, s := range servers {
		urls := make([]any, len(s.URLs))
		for i, u := range s.URLs {
			urls[i] = u
		}
		entry := map[string]any{"urls": urls}
		if s.Username != "" {
			entry["username"] = s.Username
		}
		if s.Credential != "" {
			entry["credential"] = s.Credential
		}
		out = append(out, entry)
	}
	return out
}
