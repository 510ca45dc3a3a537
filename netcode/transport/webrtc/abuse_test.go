//go:build !js

package webrtc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
	"go.uber.org/goleak"
)

// clientHeader names, in tests, the client an offer comes from, so that one
// process can look like many addresses to the rate limiter.
const clientHeader = "X-Test-Client"

func headerClientKey(r *http.Request) string {
	if k := r.Header.Get(clientHeader); k != "" {
		return k
	}
	return RemoteIP(r)
}

// keyTransport sets clientHeader on every request.
type keyTransport struct {
	base http.RoundTripper
	key  string
}

func (kt keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(clientHeader, kt.key)
	return kt.base.RoundTrip(r)
}

// postAs posts body as client key and returns the status, the body and the
// Retry-After header.
func postAs(t *testing.T, ts *testServer, key, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, ts.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(clientHeader, key)
	resp, err := ts.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b)), resp.Header.Get("Retry-After")
}

func waitStats(t *testing.T, ts *testServer, limit time.Duration, what string, ok func(ServerStats) bool) ServerStats {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		st := ts.Stats()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v; stats %+v", what, limit, st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSignallingAbuse(t *testing.T) {
	const connectTimeout = 1500 * time.Millisecond
	ts := newTestServer(t, ServerConfig{
		MaxSessions:    4,
		MaxConnecting:  3,
		OfferRate:      2,
		OfferBurst:     3,
		ConnectTimeout: connectTimeout,
		ClientKey:      headerClientKey,
	})

	// One client floods: its burst passes (and fails as garbage), the rest
	// gets 429 with Retry-After; another client is unaffected.
	var bad, limited int
	for i := range 10 {
		code, body, retry := postAs(t, ts, "flood", "garbage")
		switch code {
		case http.StatusBadRequest:
			bad++
		case http.StatusTooManyRequests:
			limited++
			n, err := strconv.Atoi(retry)
			if body != "too many offers" || err != nil || n < 1 || n > 2 {
				t.Errorf("429 %q with Retry-After %q", body, retry)
			}
		default:
			t.Errorf("flood offer %d: %d %q", i, code, body)
		}
	}
	if bad != 3 || limited != 7 {
		// A slow machine may refill a token during the flood.
		if bad < 3 || bad > 4 || limited < 6 {
			t.Fatalf("flood: %d bad requests and %d 429s, want 3 and 7", bad, limited)
		}
	}
	if code, body, _ := postAs(t, ts, "bystander", "garbage"); code != http.StatusBadRequest {
		t.Fatalf("other client during the flood: %d %q", code, body)
	}

	// Half-finished sessions: valid offers whose peer is gone before the
	// answer, so ICE never completes. They fill MaxConnecting.
	rp, deadSDP := newRawPeer(t, goodChannels())
	_ = rp.pc.Close()
	start := time.Now()
	for i := range 3 {
		if code, body, _ := postAs(t, ts, fmt.Sprint("half", i), offerJSON("offer", deadSDP)); code != http.StatusOK {
			t.Fatalf("half-open offer %d: %d %q", i, code, body)
		}
	}
	if st := ts.Stats(); st.Connecting != 3 || st.Active != 0 {
		t.Fatalf("after 3 half-open offers: %+v", st)
	}
	code, body, retry := postAs(t, ts, "half3", offerJSON("offer", deadSDP))
	if code != http.StatusServiceUnavailable || body != "too many connecting" || retry != "1" {
		t.Fatalf("offer beyond MaxConnecting: %d %q Retry-After %q", code, body, retry)
	}
	dialCfg := func(name string) DialConfig {
		cfg := ts.dialConfig(t, name)
		cfg.HTTPClient = &http.Client{Transport: keyTransport{base: ts.http.Client().Transport, key: name}}
		return cfg
	}
	// With less time left than the Retry-After, Dial gives up at once with
	// the refusal (with more, it would wait and ask again).
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if c, err := Dial(ctx, ts.url, dialCfg("early")); err == nil || !errors.Is(err, ErrSignalling) || !strings.Contains(err.Error(), "503") {
		if c != nil {
			c.Close()
		}
		t.Fatalf("Dial while MaxConnecting are negotiating: %v", err)
	}

	// ConnectTimeout frees them, counted as timed out.
	waitStats(t, ts, connectTimeout+2*time.Minute, "half-open sessions timed out", func(st ServerStats) bool {
		return st.TimedOut == 3 && st.Connecting == 0 && st.Active == 0
	})
	if d := time.Since(start); d < connectTimeout-100*time.Millisecond {
		t.Errorf("half-open sessions freed after %v, before ConnectTimeout", d)
	}
	t.Logf("half-open sessions freed after %v", time.Since(start))
	if n := ts.Sessions(); n != 0 {
		t.Fatalf("Sessions = %d after the timeouts", n)
	}

	// A real client still joins and talks.
	c := ts.dial(t, "real", dialCfg("real"))
	sc := ts.accept(t)
	exchange1(t, c, sc, 1)
	exchange1(t, sc, c, 2)

	// With the game nearly full, half-open sessions take the rest, and the
	// next offer gets "server full" with Retry-After.
	for i := range 3 {
		if code, body, _ := postAs(t, ts, fmt.Sprint("late", i), offerJSON("offer", deadSDP)); code != http.StatusOK {
			t.Fatalf("late half-open offer %d: %d %q", i, code, body)
		}
	}
	code, body, retry = postAs(t, ts, "late3", offerJSON("offer", deadSDP))
	if code != http.StatusServiceUnavailable || body != "server full" || retry != "5" {
		t.Fatalf("offer to a full server: %d %q Retry-After %q", code, body, retry)
	}
	exchange1(t, c, sc, 3) // the game goes on

	st := ts.Stats()
	want := ServerStats{
		Offers:             uint64(10 + 1 + 3 + 1 + 1 + 1 + 3 + 1),
		Answered:           7,
		RejectedRate:       uint64(limited),
		RejectedConnecting: 2,
		RejectedFull:       1,
		RejectedMalformed:  uint64(bad + 1),
		Connected:          1,
		TimedOut:           3,
		Active:             1,
		Connecting:         3,
	}
	var byPath uint64
	for _, n := range st.Paths {
		byPath += n
	}
	if byPath != st.Connected || st.Paths["unknown"] != 0 {
		t.Errorf("sessions by path %v, want %d with a known path", st.Paths, st.Connected)
	}
	st.Paths = nil
	st.Socket, st.SocketKnown = SocketInfo{}, false // TestStatsSayWhatTheKernelDropped's
	if !reflect.DeepEqual(st, want) {
		t.Fatalf("stats\n got %+v\nwant %+v", st, want)
	}
}

// exchange1 sends one event from a to b and waits for it.
func exchange1(t *testing.T, a, b transport.Conn, seq uint32) {
	t.Helper()
	if err := a.Send(transport.Events, message(9, seq, 64)); err != nil {
		t.Fatalf("send: %v", err)
	}
	if err := waitMessage(b, seq, 5*time.Second); err != nil {
		t.Fatal(err)
	}
}

// waitMessage waits for an event carrying seq on c.
func waitMessage(c transport.Conn, seq uint32, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		got := false
		var bad error
		c.Receive(func(ch transport.Channel, p []byte) {
			_, s, ok := parse(p)
			switch {
			case ch != transport.Events || !ok:
				bad = fmt.Errorf("bad message on %v", ch)
			case s == seq:
				got = true
			}
		})
		if bad != nil {
			return bad
		}
		if got {
			return nil
		}
		select {
		case <-c.Done():
			return fmt.Errorf("connection ended waiting for message %d", seq)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("message %d not received within %v", seq, limit)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestConnectDisconnectCycles(t *testing.T) {
	const cycles, parallel = 200, 8
	leaks := goleak.IgnoreCurrent()
	before := time.Now()
	ts := newTestServer(t, ServerConfig{})
	quiet := slog.New(slog.DiscardHandler)

	// The server side: echo the one message, then wait for the client to
	// leave (Close reaches the peer) and close.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var served sync.WaitGroup
	var peerClosed atomic.Int64
	acceptorDone := make(chan struct{})
	go func() {
		defer close(acceptorDone)
		for {
			c, err := ts.Accept(ctx)
			if err != nil {
				return
			}
			served.Add(1)
			go func() {
				defer served.Done()
				defer c.Close()
				seq := uint32(0)
				deadline := time.Now().Add(2 * time.Minute) // a hang guard
				for seq == 0 && time.Now().Before(deadline) {
					c.Receive(func(_ transport.Channel, p []byte) {
						if _, s, ok := parse(p); ok {
							seq = s
						}
					})
					select {
					case <-c.Done():
						return
					case <-time.After(time.Millisecond):
					}
				}
				if seq == 0 {
					t.Errorf("server: no message")
					return
				}
				if err := c.Send(transport.Events, message(2, seq, 32)); err != nil {
					t.Errorf("server echo %d: %v", seq, err)
					return
				}
				select {
				case <-c.Done():
					peerClosed.Add(1)
				case <-time.After(5 * time.Second):
				}
			}()
		}
	}()

	var next atomic.Uint32
	var workers sync.WaitGroup
	for w := range parallel {
		workers.Add(1)
		go func() {
			defer workers.Done()
			cfg := ts.dialConfig(t, fmt.Sprint("client", w))
			cfg.Logger = quiet
			for {
				seq := next.Add(1)
				if seq > cycles || t.Failed() {
					return
				}
				dctx, dcancel := context.WithTimeout(ctx, 2*time.Minute) // a hang guard
				c, err := Dial(dctx, ts.url, cfg)
				dcancel()
				if err != nil {
					t.Errorf("cycle %d: Dial: %v", seq, err)
					return
				}
				err = c.Send(transport.Events, message(1, seq, 32))
				if err == nil {
					err = waitMessage(c, seq, 10*time.Second)
				}
				c.Close()
				if err != nil {
					t.Errorf("cycle %d: %v", seq, err)
					return
				}
			}
		}()
	}
	workers.Wait()
	if t.Failed() {
		return
	}
	st := waitStats(t, ts, 2*time.Minute, "all sessions ended", func(st ServerStats) bool {
		return st.Active == 0 && st.Connecting == 0
	})
	cancel()
	<-acceptorDone
	served.Wait()
	elapsed := time.Since(before)
	t.Logf("%d cycles in %v (%v each, %d at a time); %d server sessions saw the client's Close; stats %+v",
		cycles, elapsed, elapsed/cycles, parallel, peerClosed.Load(), st)
	if st.Answered != cycles || st.Connected != cycles || st.TimedOut != 0 {
		t.Errorf("stats %+v, want %d answered and connected, none timed out", st, cycles)
	}
	ts.mu.Lock()
	tables := [3]int{len(ts.sessions), len(ts.connecting), len(ts.acceptQ)}
	ts.mu.Unlock()
	if tables != [3]int{} {
		t.Fatalf("server tables not empty: sessions, connecting, acceptQ = %v", tables)
	}

	ts.http.Close()
	if err := ts.Server.Close(); err != nil {
		t.Fatal(err)
	}
	goleak.VerifyNone(t, leaks)
}

// A client told to come back later (429 or 503 with Retry-After) waits and
// asks again within its deadline: a crowd joining at once all gets in.
func TestDialRetriesWhenToldToComeBack(t *testing.T) {
	ts := newTestServer(t, ServerConfig{OfferRate: 1, OfferBurst: 1})
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
			defer cancel()
			c, err := Dial(ctx, ts.url, ts.dialConfig(t, fmt.Sprint("c", i)))
			if err == nil {
				c.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("client %d: %v", i, err)
		}
	}
	if st := ts.Stats(); st.RejectedRate == 0 || st.Answered != 3 {
		t.Fatalf("stats %+v: want some offers refused for rate and all three answered in the end", st)
	}
}

// TestDialWaitsOutRetryAfter: a client that finds every connecting place
// taken is told to come back later (503, Retry-After 1); Dial waits, asks
// again, says so through OnRetryLater each time, and joins once a
// half-finished session times out.
func TestDialWaitsOutRetryAfter(t *testing.T) {
	const connectTimeout = 1500 * time.Millisecond
	ts := newTestServer(t, ServerConfig{MaxConnecting: 1, ConnectTimeout: connectTimeout, ClientKey: headerClientKey})
	rp, deadSDP := newRawPeer(t, goodChannels())
	_ = rp.pc.Close()
	start := time.Now()
	if code, body, _ := postAs(t, ts, "half", offerJSON("offer", deadSDP)); code != http.StatusOK {
		t.Fatalf("half-open offer: %d %q", code, body)
	}
	cfg := ts.dialConfig(t, "patient")
	cfg.HTTPClient = &http.Client{Transport: keyTransport{base: ts.http.Client().Transport, key: "patient"}}
	var waits []time.Duration
	var refusals []error
	cfg.OnRetryLater = func(wait time.Duration, refusal error) {
		waits = append(waits, wait)
		refusals = append(refusals, refusal)
	}
	c := ts.dial(t, "patient", cfg)
	took := time.Since(start)
	sc := ts.accept(t)
	exchange1(t, c, sc, 1)
	t.Logf("joined after %v, having waited %v", took, waits)
	if len(waits) == 0 || took < connectTimeout {
		t.Fatalf("joined after %v with waits %v: the half-open session held its place for %v", took, waits, connectTimeout)
	}
	for i, w := range waits {
		if w != time.Second || !errors.Is(refusals[i], ErrSignalling) || !strings.Contains(refusals[i].Error(), "503") {
			t.Errorf("retry %d: wait %v after %v, want 1s after a 503", i, w, refusals[i])
		}
	}
	if st := ts.Stats(); st.RejectedConnecting != uint64(len(waits)) || st.TimedOut != 1 || st.Connected != 1 {
		t.Errorf("stats %+v: want %d refused while connecting, 1 timed out, 1 connected", st, len(waits))
	}
}

// One address holding half-open sessions takes at most
// MaxConnectingPerClient of the negotiating slots: its next offer is
// refused, while another address's joins. By default an IPv6 address
// counts by its /64.
func TestConnectingPerClient(t *testing.T) {
	const perClient = 3
	ts := newTestServer(t, ServerConfig{MaxConnecting: 8, MaxConnectingPerClient: perClient, ConnectTimeout: 3 * time.Second, ClientKey: headerClientKey})
	rp, deadSDP := newRawPeer(t, goodChannels())
	_ = rp.pc.Close()
	for i := range perClient {
		if code, body, _ := postAs(t, ts, "attacker", offerJSON("offer", deadSDP)); code != http.StatusOK {
			t.Fatalf("half-open offer %d: %d %q", i, code, body)
		}
	}
	code, body, retry := postAs(t, ts, "attacker", offerJSON("offer", deadSDP))
	if code != http.StatusServiceUnavailable || body != "too many connecting from this address" || retry != "1" {
		t.Fatalf("the attacker's offer beyond its share: %d %q Retry-After %q", code, body, retry)
	}
	cfg := ts.dialConfig(t, "honest")
	cfg.HTTPClient = &http.Client{Transport: keyTransport{base: ts.http.Client().Transport, key: "honest"}}
	c := ts.dial(t, "honest", cfg)
	sc := ts.accept(t)
	exchange1(t, c, sc, 1)
	if st := ts.Stats(); st.Connecting != perClient {
		t.Errorf("negotiating: %d, want the attacker's %d", st.Connecting, perClient)
	}

	plain := newTestServer(t, ServerConfig{OfferBurst: 7})
	if plain.cfg.MaxConnectingPerClient != 7 {
		t.Errorf("default MaxConnectingPerClient with OfferBurst 7: %d", plain.cfg.MaxConnectingPerClient)
	}
	key := plain.cfg.ClientKey
	a := key(&http.Request{RemoteAddr: "[2001:db8:1:2::1]:5000"})
	b := key(&http.Request{RemoteAddr: "[2001:db8:1:2:ffff::9]:6000"})
	other := key(&http.Request{RemoteAddr: "[2001:db8:1:3::1]:5000"})
	if a != b || a == other {
		t.Errorf("default ClientKey: %q, %q (one /64), %q (another)", a, b, other)
	}
}

// A session whose peer never sends an ICE check is closed after
// NoProgressTimeout, long before ConnectTimeout; a real peer, which checks
// at once, joins under the same short limit.
func TestNoProgressTimeout(t *testing.T) {
	ts := newTestServer(t, ServerConfig{ConnectTimeout: 10 * time.Minute, NoProgressTimeout: 500 * time.Millisecond, ClientKey: headerClientKey})
	rp, deadSDP := newRawPeer(t, goodChannels())
	_ = rp.pc.Close()
	start := time.Now()
	if code, body, _ := postAs(t, ts, "dead", offerJSON("offer", deadSDP)); code != http.StatusOK {
		t.Fatalf("dead offer: %d %q", code, body)
	}
	waitStats(t, ts, 2*time.Minute, "the silent session closed", func(st ServerStats) bool {
		return st.Connecting == 0 && st.TimedOut == 1
	})
	// Not before the limit (a busy machine only makes it later); and long
	// before ConnectTimeout, 10 minutes, past the wait's 2-minute guard.
	if d := time.Since(start); d < 400*time.Millisecond {
		t.Errorf("the silent session closed after %v, before its 500 ms", d)
	}
	c := ts.dial(t, "real", ts.dialConfig(t, "real"))
	sc := ts.accept(t)
	exchange1(t, c, sc, 1)
	time.Sleep(700 * time.Millisecond) // past NoProgressTimeout: still connected
	exchange1(t, sc, c, 2)
	if st := ts.Stats(); st.TimedOut != 1 || st.Active != 1 {
		t.Errorf("stats %+v: want the real peer active, one timed out", st)
	}
}
