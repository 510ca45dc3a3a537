//go:build !js

package webrtc

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// statusTransport sets clientHeader and counts the answers' statuses.
type statusTransport struct {
	keyTransport
	mu       sync.Mutex
	statuses map[int]int
}

func (st *statusTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := st.keyTransport.RoundTrip(r)
	if err == nil {
		st.mu.Lock()
		st.statuses[resp.StatusCode]++
		st.mu.Unlock()
	}
	return resp, err
}

// An attacker that posts offers as fast as its rate limit lets it, each
// left half-open (its peer never sends an ICE check, so each holds a
// negotiating slot for the whole ConnectTimeout), keeps no one else out:
// it holds at most MaxConnectingPerClient of the MaxConnecting slots, and
// another address's players all join meanwhile, not one offer refused.
// (Before the per-address cap, the same attacker had another address's
// offers refused 99% of the time.)
func TestHalfOpenAttackerKeepsNoOneOut(t *testing.T) {
	const rate = 20 // offers a second: the attacker's limit, met in full
	ts := newTestServer(t, ServerConfig{OfferRate: rate, OfferBurst: 5, ClientKey: headerClientKey, ReadInterval: 50 * time.Millisecond})
	rp, deadSDP := newRawPeer(t, goodChannels())
	_ = rp.pc.Close()

	ctx, cancel := context.WithCancel(context.Background())
	var attacks, held atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(time.Second / rate)
		defer tick.Stop()
		for ctx.Err() == nil {
			if code, _, _ := postAs(t, ts, "attacker", offerJSON("offer", deadSDP)); code == http.StatusOK {
				held.Add(1)
			}
			attacks.Add(1)
			<-tick.C
		}
	})
	// The attacker fills its share before the first player comes.
	waitStats(t, ts, 2*time.Minute, "the attacker's half-open sessions", func(st ServerStats) bool {
		return st.Connecting >= ts.cfg.MaxConnectingPerClient
	})

	joins := 40
	if testing.Short() {
		joins = 10
	}
	honest := &statusTransport{keyTransport: keyTransport{base: ts.http.Client().Transport, key: "player"}, statuses: map[int]int{}}
	// The players' address joins at half its rate limit: many players
	// behind one address, but not an attacker.
	pace := time.NewTicker(2 * time.Second / rate)
	defer pace.Stop()
	for i := range joins {
		<-pace.C
		cfg := ts.dialConfig(t, "player")
		cfg.HTTPClient = &http.Client{Transport: honest}
		c := ts.dial(t, "player", cfg)
		sc := ts.accept(t)
		exchange1(t, c, sc, uint32(i))
		c.Close()
		sc.Close()
		if st := ts.Stats(); st.Connecting > ts.cfg.MaxConnectingPerClient+1 {
			t.Fatalf("join %d: %d sessions negotiating, want the attacker's %d and at most the player's one", i, st.Connecting, ts.cfg.MaxConnectingPerClient)
		}
	}
	cancel()
	wg.Wait()
	st := ts.Stats()
	t.Logf("the attacker posted %d offers (%d answered, left half-open); the player's %d joins met %v; stats %+v",
		attacks.Load(), held.Load(), joins, honest.statuses, st)
	if honest.statuses[http.StatusOK] != joins || len(honest.statuses) != 1 {
		t.Errorf("the player's offers were answered %v, want %d of %d with 200", honest.statuses, joins, joins)
	}
	if st.RejectedConnecting == 0 || attacks.Load() < 2*rate {
		t.Errorf("the attacker posted %d offers, refused %d times for its share: it did not press", attacks.Load(), st.RejectedConnecting)
	}
}

// Offers from 100 addresses of one IPv6 /64 share one rate limit (and one
// share of the negotiating slots), as one address's do: the burst is
// answered, the rest refused; another /64's offer is not.
func TestOffersFromOneSlash64ShareOneLimit(t *testing.T) {
	ts := newTestServer(t, ServerConfig{OfferRate: 1, OfferBurst: 5, MaxConnecting: 64})
	rp, deadSDP := newRawPeer(t, goodChannels())
	_ = rp.pc.Close()
	post := func(remote string) int {
		r := httptest.NewRequest(http.MethodPost, "/signal", strings.NewReader(offerJSON("offer", deadSDP)))
		r.Header.Set("Content-Type", "application/json")
		r.RemoteAddr = remote
		w := httptest.NewRecorder()
		ts.ServeHTTP(w, r)
		return w.Code
	}
	codes := map[int]int{}
	for i := range 100 {
		codes[post(fmt.Sprintf("[2001:db8:1:2::%x]:5000", i+1))]++
	}
	if codes[http.StatusOK] != 5 || codes[http.StatusTooManyRequests] != 95 {
		t.Errorf("100 offers from one /64: %v, want 5 answered and 95 refused 429", codes)
	}
	if code := post("[2001:db8:1:3::1]:5000"); code != http.StatusOK {
		t.Errorf("an offer from another /64: %d, want 200", code)
	}
}
