//go:build !js

package webrtc

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A server hosting several groups (matches) routes each offer by its
// request: Accept of one route receives only that route's sessions, an
// unknown route is answered 404 with the Route error's text, and a full
// route 503 "server full", as MaxSessions is.
func TestRouteHandsEachSessionToItsRoute(t *testing.T) {
	capacity := map[string]int{"a": 2, "b": 1}
	ts := newTestServer(t, ServerConfig{Route: func(r *http.Request, live func(string) int) (string, error) {
		id := r.URL.Query().Get("match")
		if id == "" { // the fullest route with room
			best := ""
			for _, k := range []string{"a", "b"} {
				if live(k) < capacity[k] && (best == "" || live(k) > live(best)) {
					best = k
				}
			}
			if best == "" {
				return "", ErrRouteFull
			}
			return best, nil
		}
		c, ok := capacity[id]
		switch {
		case !ok:
			return "", fmt.Errorf("no match %q here: %w", id, ErrNoRoute)
		case live(id) >= c:
			return "", fmt.Errorf("match %s: %w", id, ErrRouteFull)
		}
		return id, nil
	}})
	base := ts.url
	dial := func(query string) {
		t.Helper()
		ts.url = base + query
		defer func() { ts.url = base }()
		ts.dial(t, "client"+query, ts.dialConfig(t, "client"))
	}
	raw := func(query string) (int, string) {
		t.Helper()
		resp, err := ts.http.Client().Post(base+query, "application/json", strings.NewReader(offerJSON("offer", "v=0")))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, strings.TrimSpace(string(b))
	}
	accept := func(route string, wait time.Duration) error {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		c, err := ts.AcceptRoute(ctx, route)
		if err == nil {
			t.Cleanup(func() { c.Close() })
		}
		return err
	}

	dial("?match=b")
	dial("") // a has room and is the only one: the fullest with room
	dial("") // a again: 1 of 2 beats b's full 1 of 1
	if code, body := raw(""); code != http.StatusServiceUnavailable || body != "server full" {
		t.Errorf("an offer with every route full: %d %q, want 503 \"server full\"", code, body)
	}
	if code, body := raw("?match=b"); code != http.StatusServiceUnavailable || body != "server full" {
		t.Errorf("an offer for the full route b: %d %q, want 503 \"server full\"", code, body)
	}
	if code, body := raw("?match=zz"); code != http.StatusNotFound || body != `no match "zz" here` {
		t.Errorf("an offer for an unknown route: %d %q, want 404 %q", code, body, `no match "zz" here`)
	}
	for route, n := range map[string]int{"a": 2, "b": 1} {
		if got := ts.RouteSessions(route); got != n {
			t.Errorf("route %s: %d live sessions, want %d", route, got, n)
		}
		for i := range n {
			if err := accept(route, 10*time.Second); err != nil {
				t.Fatalf("route %s, session %d: %v", route, i+1, err)
			}
		}
		if err := accept(route, 200*time.Millisecond); err == nil {
			t.Errorf("route %s: a session more than the %d dialled", route, n)
		}
	}
	if err := accept("", 200*time.Millisecond); err == nil {
		t.Error("Accept (the route \"\") got a session that has a route")
	}
	st := ts.Stats()
	if st.Answered != 3 || st.RejectedFull != 2 || st.RejectedNoRoute != 1 || st.Offers != 6 {
		t.Errorf("stats %+v: want 6 offers, 3 answered, 2 full, 1 without a route", st)
	}
}
