package webrtc

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/netcode/iceservers"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// Dial connects to the server whose signalling endpoint is signalURL: it
// creates the four channels, gathers all ICE candidates, posts the offer,
// applies the answer and returns once all four channels are open. If ctx
// ends first, or anything fails, everything is closed and the error
// returned (signalling failures wrap [ErrSignalling]; a failure also wraps
// the sentinel of where it happened: [ErrUnreachable], [ErrICEFailed] or
// [ErrChannelsNotOpen]). cfg.OnStage hears each stage as it is reached.
//
// In the browser, call Dial from a goroutine, never from inside a
// JavaScript callback: it waits on fetch and on the browser's events.
func Dial(ctx context.Context, signalURL string, cfg DialConfig) (transport.Conn, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	log = log.With("server", signalURL)
	progress := datachan.NewProgress(cfg.OnStage)
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = http.DefaultClient
	}

	servers := cfg.ICEServers
	if cfg.ICEServersURL != "" {
		fetched := fetchICEServers(ctx, httpClient, cfg.ICEServersURL, cfg.Token, log)
		servers = append(slices.Clone(servers), fetched...)
		progress.Reach(StageICEServers, fmt.Sprintf("%d", len(fetched)))
	}
	pcCfg := webrtc.Configuration{ICEServers: servers}
	if cfg.RelayOnly {
		pcCfg.ICETransportPolicy = webrtc.ICETransportPolicyRelay
	}
	pc, err := newClientAPI(cfg, log).NewPeerConnection(pcCfg)
	if err != nil {
		return nil, fmt.Errorf("webrtc: new peer connection: %w", err)
	}
	c := newConn(pc, cfg.ConnConfig, log)
	c.watchState()
	pc.OnICEConnectionStateChange(func(s webrtc.ICEConnectionState) {
		switch s {
		case webrtc.ICEConnectionStateConnected, webrtc.ICEConnectionStateCompleted:
			// The path is read from the statistics, not from within
			// the ICE agent's callback.
			// ICE may connect before Dial, back from setting the
			// answer, reports the checks: this waits for that.
			go func() {
				if progress.Wait(StageChecking, c.Done()) {
					progress.Reach(StageConnected, c.selectedPath())
				}
			}()
		}
	})
	fail := func(err error) (transport.Conn, error) {
		c.Close()
		return nil, err
	}

	for ch := range transport.Channel(transport.NumChannels) {
		dc, err := pc.CreateDataChannel(ch.String(), channelInit(ch))
		if err != nil {
			return fail(fmt.Errorf("webrtc: create %s channel: %w", ch, err))
		}
		if err := c.setChannel(ch, dc); err != nil {
			return fail(err)
		}
	}

	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return fail(fmt.Errorf("webrtc: create offer: %w", err))
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(offer); err != nil {
		return fail(fmt.Errorf("webrtc: set offer: %w", err))
	}
	gatherLimit := cfg.GatherTimeout
	if gatherLimit <= 0 {
		gatherLimit = DefaultGatherTimeout
	}
	gatherTimer := time.NewTimer(gatherLimit)
	defer gatherTimer.Stop()
	select {
	case <-gathered:
	case <-gatherTimer.C:
		// An unreachable STUN or TURN server: offer what was found.
		log.Debug("gathering cut short", "after", gatherLimit)
	case <-ctx.Done():
		return fail(fmt.Errorf("webrtc: gathering candidates: %w", ctx.Err()))
	}

	offerBody := datachan.OfferBody(pc.LocalDescription().SDP, cfg.Version)
	answer, err := datachan.Exchange(ctx, func(ctx context.Context) (string, error) {
		progress.Reach(StageOfferSent, "")
		return postOffer(ctx, httpClient, signalURL, cfg.Token, offerBody)
	}, cfg.OnRetryLater)
	if err != nil {
		return fail(datachan.Posting(err))
	}
	progress.Reach(StageAnswer, "")
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: answer}); err != nil {
		return fail(fmt.Errorf("%w: bad answer: %v", ErrSignalling, err))
	}
	// The checks start with the answer's candidates.
	progress.Reach(StageChecking, datachan.CandidatePaths(answer))

	var iceLimit <-chan time.Time
	if cfg.ICETimeout > 0 {
		t := time.NewTimer(cfg.ICETimeout)
		defer t.Stop()
		iceLimit = t.C
	}
	for {
		select {
		case <-c.ready:
			progress.Reach(StageConnected, c.Stats().Path)
			progress.Reach(StageChannelsOpen, c.Stats().Path)
			log.Debug("connected")
			return c, nil
		case <-c.Done():
			err := c.Err()
			if err == nil {
				err = transport.ErrClosed
			}
			return nil, fmt.Errorf("webrtc: connecting: %w", progress.AfterAnswer(err))
		case <-iceLimit:
			iceLimit = nil
			if progress.Reached(StageConnected) {
				continue // ICE is through: the channels have until ctx ends
			}
			return fail(fmt.Errorf("webrtc: connecting: %w", progress.AfterAnswer(fmt.Errorf("no working path after %v", cfg.ICETimeout))))
		case <-ctx.Done():
			return fail(fmt.Errorf("webrtc: opening channels: %w", progress.AfterAnswer(ctx.Err())))
		}
	}
}

// postOffer posts the offer's body once and returns the answer's SDP, or
// the refusal ([datachan.Response]).
func postOffer(ctx context.Context, client *http.Client, url, token string, body []byte) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrSignalling, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrSignalling, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, datachan.MaxAnswerBytes))
	if err != nil {
		return "", fmt.Errorf("%w: reading answer: %v", ErrSignalling, err)
	}
	answer, err := datachan.Response(resp.StatusCode, resp.Status, resp.Header.Get("Retry-After"), data)
	if err != nil {
		return "", err
	}
	if err := checkSDP(answer); err != nil {
		return "", fmt.Errorf("%w: %w", ErrSignalling, err)
	}
	return answer, nil
}

// fetchICEServers asks url for the ICE servers a game server hands its
// clients (GET, with the join token if any) and returns them; none if the
// server has none, refuses, or cannot be asked (logged at Debug).
func fetchICEServers(ctx context.Context, client *http.Client, url, token string, log *slog.Logger) []webrtc.ICEServer {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		log.Debug("no ICE servers", "url", url, "err", err)
		return nil
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		log.Debug("no ICE servers", "url", url, "err", err)
		return nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, iceservers.MaxListBytes+1))
	if err != nil || resp.StatusCode != http.StatusOK {
		log.Debug("no ICE servers", "url", url, "status", resp.Status, "err", err)
		return nil
	}
	list, err := iceservers.ParseList(body)
	if err != nil {
		log.Warn("ICE servers refused", "url", url, "err", err)
		return nil
	}
	out := make([]webrtc.ICEServer, 0, len(list.ICEServers))
	for _, s := range list.ICEServers {
		out = append(out, webrtc.ICEServer{URLs: s.URLs, Username: s.Username, Credential: s.Credential})
	}
	log.Debug("ICE servers", "url", url, "servers", len(out), "ttl_s", list.TTL)
	return out
}
