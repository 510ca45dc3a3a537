package webrtc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/netcode/transport"
)

// ProtocolVersion is the version of the match protocol (docs/PROTOCOL.md)
// an offer speaks. A server refuses an offer of another version with 400.
// Version 2: the arena's state field grew to 4 bits (the spawn shield).
// Version 3: the clock record names the next round's start (the
// intermission), the score record carries accuracy, pickups have kinds 1
// and 2 (spread gun, power-up), and the loadout record is new.
const ProtocolVersion = 3

// maxAnswerBytes caps the answer Dial reads.
const maxAnswerBytes = 64 << 10

// Dial connects to the server whose signalling endpoint is signalURL: it
// creates the four channels, gathers all ICE candidates, posts the offer,
// applies the answer and returns once all four channels are open. If ctx
// ends first, or anything fails, everything is closed and the error
// returned (signalling failures wrap [ErrSignalling]).
//
// In the browser, call Dial from a goroutine, never from inside a
// JavaScript callback: it waits on fetch and on the browser's events.
func Dial(ctx context.Context, signalURL string, cfg DialConfig) (transport.Conn, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	log = log.With("server", signalURL)
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = http.DefaultClient
	}

	pc, err := newClientAPI(cfg, log).NewPeerConnection(webrtc.Configuration{ICEServers: cfg.ICEServers})
	if err != nil {
		return nil, fmt.Errorf("webrtc: new peer connection: %w", err)
	}
	c := newConn(pc, cfg.ConnConfig, log)
	c.watchState()
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
	select {
	case <-gathered:
	case <-ctx.Done():
		return fail(fmt.Errorf("webrtc: gathering candidates: %w", ctx.Err()))
	}

	answer, err := exchange(ctx, httpClient, signalURL, pc.LocalDescription().SDP, cfg.OnRetryLater)
	if err != nil {
		return fail(err)
	}
	if err := pc.SetRemoteDescription(answer); err != nil {
		return fail(fmt.Errorf("%w: bad answer: %v", ErrSignalling, err))
	}

	select {
	case <-c.ready:
		log.Debug("connected")
		return c, nil
	case <-c.done:
		err := c.err()
		if err == nil {
			err = transport.ErrClosed
		}
		return nil, fmt.Errorf("webrtc: connecting: %w", err)
	case <-ctx.Done():
		return fail(fmt.Errorf("webrtc: opening channels: %w", ctx.Err()))
	}
}

// exchange posts the offer and returns the server's answer. While the server
// answers 429 or 503 with a Retry-After (too many offers, too many players
// connecting at once), it waits that long and asks again, until ctx ends,
// telling onRetry (if not nil) before each wait.
func exchange(ctx context.Context, client *http.Client, url, sdp string, onRetry func(time.Duration, error)) (webrtc.SessionDescription, error) {
	for {
		answer, wait, err := exchangeOnce(ctx, client, url, sdp)
		if wait <= 0 {
			return answer, err
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return answer, err // no time left to be let in
		}
		if onRetry != nil {
			onRetry(wait, err)
		}
		select {
		case <-ctx.Done():
			return answer, fmt.Errorf("%w (waiting to retry: %w)", err, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// exchangeOnce posts the offer once. A positive wait means "come back then".
func exchangeOnce(ctx context.Context, client *http.Client, url, sdp string) (webrtc.SessionDescription, time.Duration, error) {
	answer, err := postOffer(ctx, client, url, sdp)
	var later *retryLater
	if errors.As(err, &later) {
		return answer, later.after, err
	}
	return answer, 0, err
}

// retryLater is a refusal that says when to try again.
type retryLater struct {
	after time.Duration
	err   error
}

func (r *retryLater) Error() string { return r.err.Error() }
func (r *retryLater) Unwrap() error { return r.err }

func postOffer(ctx context.Context, client *http.Client, url, sdp string) (webrtc.SessionDescription, error) {
	var none webrtc.SessionDescription
	body, err := json.Marshal(sdpMessage{Type: "offer", SDP: sdp, Version: ProtocolVersion})
	if err != nil {
		return none, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return none, fmt.Errorf("%w: %v", ErrSignalling, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return none, fmt.Errorf("%w: %w", ErrSignalling, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		return none, fmt.Errorf("%w: reading answer: %v", ErrSignalling, err)
	}
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("%w: %s: %s", ErrSignalling, resp.Status, shorten(strings.TrimSpace(string(data)), 200))
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			if secs, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && secs > 0 && secs <= 60 {
				return none, &retryLater{after: time.Duration(secs) * time.Second, err: err}
			}
		}
		return none, err
	}
	answer, err := parseAnswer(data)
	if err != nil {
		return none, fmt.Errorf("%w: %w", ErrSignalling, err)
	}
	return webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: answer}, nil
}

// shorten cuts s to at most n bytes on a rune boundary.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
