//go:build !js

package rendezvous

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// The defaults of HostConfig's zero fields.
const (
	DefaultMinBackoff = time.Second
	DefaultMaxBackoff = 30 * time.Second
	// hostRequestTimeout bounds how long the host's handler may take.
	hostRequestTimeout = 20 * time.Second
	// hostConcurrency caps the requests a host serves at once, and
	// hostQueue those it holds, serving or waiting to; beyond, it answers
	// 503 at once (its reading never waits on its handler, so it keeps
	// answering the rendezvous's pings).
	hostConcurrency = 16
	hostQueue       = 64
	// stableAfter is how long a connection must last for the next
	// reconnection to start from MinBackoff again.
	stableAfter = 30 * time.Second
)

// HostConfig configures [Host].
type HostConfig struct {
	// URL is the rendezvous's base URL ("http://203.0.113.5:8090"); the
	// host connects to its /host over a WebSocket (ws:, or wss: for https:).
	URL string
	// Handler serves the forwarded requests: the host's own HTTP handler,
	// the same that serves them to players who reach it directly.
	Handler http.Handler
	// OnInvite is called with each new invite (after every connection:
	// a code dies with its connection) and again, with the same code,
	// when the rendezvous refreshes the ICE servers it hands out.
	OnInvite func(Invite)
	// Logger receives the host's records (nil: slog.Default()).
	Logger *slog.Logger
	// MinBackoff and MaxBackoff bound the wait before reconnecting, which
	// doubles after each failure (defaults 1 s and 30 s); each wait is
	// drawn between half the backoff and all of it.
	MinBackoff, MaxBackoff time.Duration
	// HTTPClient dials the WebSocket (nil: http.DefaultClient).
	HTTPClient *http.Client
	// Header is added to the WebSocket's opening request.
	Header http.Header
	// UseRelay asks the rendezvous, after each welcome, to answer the
	// players' GET LINK/ice itself with its relay's credentials, one per
	// player, scoped to the host (a relay message): for a host without a
	// relay of its own. Its Handler then never sees GET /ice from an
	// invite, so no join token is checked there (the offer checks it).
	UseRelay bool
	// PublicIPs are the host's public addresses as it learnt them (STUN),
	// sent with UseRelay for the rendezvous to scope the players'
	// credentials to beside the connection's own address (it takes only
	// those in the connection's /24 or /56).
	PublicIPs []netip.Addr
}

// Invite is what the rendezvous gave the host: the code, the link players
// join with, and the ICE servers (a JSON list of iceservers.Server) it
// hands out for the host's players, if any, with their credentials' life.
type Invite struct {
	Code, URL  string
	ICEServers json.RawMessage
	TTL        time.Duration
}

// hostURL returns the WebSocket URL of a rendezvous base URL.
func hostURL(base string) (string, error) {
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%w: %q", ErrBadURL, base)
	}
	switch u.Scheme {
	case "http", "ws":
		u.Scheme = "ws"
	case "https", "wss":
		u.Scheme = "wss"
	default:
		return "", fmt.Errorf("%w: %q: not http or https", ErrBadURL, base)
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/host"
	u.RawQuery, u.Fragment = "", ""
	return u.String(), nil
}

// Host keeps the host connected to the rendezvous at cfg.URL until ctx
// ends, serving the requests it forwards with cfg.Handler and reconnecting
// (with a new code) when the connection drops. It returns ctx's error, or
// at once an error for a configuration that cannot work.
func Host(ctx context.Context, cfg HostConfig) error {
	wsURL, err := hostURL(cfg.URL)
	if err != nil {
		return err
	}
	if cfg.Handler == nil {
		return ErrNoHandler
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = DefaultMinBackoff
	}
	if cfg.MaxBackoff < cfg.MinBackoff {
		cfg.MaxBackoff = max(DefaultMaxBackoff, cfg.MinBackoff)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	backoff := cfg.MinBackoff
	for {
		began := time.Now()
		err := hostSession(ctx, wsURL, cfg, log)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Since(began) > stableAfter {
			backoff = cfg.MinBackoff
		}
		// Between half the backoff and all of it, so that the hosts of a
		// rendezvous that restarts do not all come back at once.
		wait := backoff/2 + rand.N(backoff/2+1)
		log.Warn("rendezvous: connection lost; reconnecting", "url", cfg.URL, "err", err, "in", wait)
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
		backoff = min(2*backoff, cfg.MaxBackoff)
	}
}

// hostSession is one connection: welcome, then requests until it drops.
func hostSession(ctx context.Context, wsURL string, cfg HostConfig, log *slog.Logger) error {
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	ws, _, err := websocket.Dial(dctx, wsURL, &websocket.DialOptions{HTTPClient: cfg.HTTPClient, HTTPHeader: cfg.Header})
	cancel()
	if err != nil {
		return err
	}
	defer ws.CloseNow()
	ws.SetReadLimit(MaxMessageBytes)
	ctx, stop := context.WithCancel(ctx)
	defer stop()

	read := func() (Message, error) {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return Message{}, err
		}
		return ParseMessage(data)
	}
	m, err := read()
	if err != nil {
		return err
	}
	if m.Type != TypeWelcome {
		return fmt.Errorf("%w: first message %q", ErrNoWelcome, m.Type)
	}
	invite := Invite{Code: m.Code, URL: m.URL, ICEServers: m.ICEServers, TTL: time.Duration(m.TTL) * time.Second}

	var writeMu sync.Mutex
	write := func(m Message) {
		data, err := json.Marshal(m)
		if err != nil {
			return
		}
		writeMu.Lock()
		defer writeMu.Unlock()
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := ws.Write(wctx, websocket.MessageText, data); err != nil {
			log.Debug("rendezvous: writing a response", "err", err)
			stop()
		}
	}
	if cfg.UseRelay {
		relay := Message{Type: TypeRelay}
		for _, a := range cfg.PublicIPs[:min(len(cfg.PublicIPs), MaxAddrs)] {
			relay.Addrs = append(relay.Addrs, a.Unmap().WithZone("").String())
		}
		write(relay)
	}
	if cfg.OnInvite != nil {
		cfg.OnInvite(invite)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	slots := make(chan struct{}, hostConcurrency)
	queue := make(chan struct{}, hostQueue)
	for {
		m, err := read()
		if err != nil {
			return err
		}
		switch m.Type {
		case TypeICE:
			invite.ICEServers, invite.TTL = m.ICEServers, time.Duration(m.TTL)*time.Second
			if cfg.OnInvite != nil {
				cfg.OnInvite(invite)
			}
		case TypeRequest:
			select {
			case queue <- struct{}{}:
			default:
				write(Message{Type: TypeResponse, ID: m.ID, Status: http.StatusServiceUnavailable,
					Header: map[string][]string{"Retry-After": {"1"}, "Content-Type": {"text/plain; charset=utf-8"}},
					Body:   []byte("host busy\n")})
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-queue }()
				select {
				case slots <- struct{}{}:
				case <-ctx.Done():
					return
				}
				defer func() { <-slots }()
				resp := serveForwarded(ctx, cfg.Handler, m, invite)
				if ctx.Err() != nil {
					return // the connection is ending: the answer is the rendezvous's 502
				}
				write(resp)
			}()
		default:
			return fmt.Errorf("%w: unexpected %q", ErrBadMessage, m.Type)
		}
	}
}

// serveForwarded serves a forwarded request with h and returns the
// response message.
func serveForwarded(ctx context.Context, h http.Handler, m Message, inv Invite) Message {
	ctx, cancel := context.WithTimeout(ctx, hostRequestTimeout)
	defer cancel()
	host := "rendezvous"
	if u, err := url.Parse(inv.URL); err == nil && u.Host != "" {
		host = u.Host
	}
	req, err := http.NewRequestWithContext(ctx, m.Method, "http://"+host+"/", bytes.NewReader(m.Body))
	if err != nil {
		return Message{Type: TypeResponse, ID: m.ID, Status: http.StatusBadRequest, Body: []byte("bad request\n")}
	}
	// The path and query as the message has them, never reparsed: a
	// path holding "?" or "#" stays a path.
	req.URL.Path, req.URL.RawQuery = m.Path, m.Query
	for _, k := range forwardedRequestHeaders { // no other header, whatever the message holds
		for _, v := range m.Header[k] {
			req.Header.Add(k, v)
		}
	}
	req.RemoteAddr = m.Remote
	req.RequestURI = req.URL.RequestURI()
	w := &responseRecorder{header: http.Header{}}
	h.ServeHTTP(w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	resp := Message{Type: TypeResponse, ID: m.ID, Status: w.status, Body: w.body.Bytes()}
	for _, k := range forwardedResponseHeaders {
		if v := w.header.Values(k); len(v) > 0 {
			if resp.Header == nil {
				resp.Header = map[string][]string{}
			}
			resp.Header[k] = v
		}
	}
	if w.over {
		resp = Message{Type: TypeResponse, ID: m.ID, Status: http.StatusBadGateway, Body: []byte("answer too large\n")}
	}
	return resp
}

// responseRecorder is the ResponseWriter a forwarded request is served
// with: it keeps the status, the headers and up to MaxBodyBytes of body.
type responseRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	over   bool
}

func (r *responseRecorder) Header() http.Header { return r.header }

func (r *responseRecorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *responseRecorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	if r.body.Len()+len(p) > MaxBodyBytes {
		r.over = true
		return 0, fmt.Errorf("%w: answer over %d bytes", ErrBadMessage, MaxBodyBytes)
	}
	return r.body.Write(p)
}
