package webrtc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// peer is what the tests' Admit says of an admitted peer.
type peer struct{ name string }

// Admit decides before any WebRTC work: an offer without credentials is
// refused 401, one with credentials that do not admit it 403, and an
// Admit that fails otherwise 503 with a Retry-After, each with Admit's
// text and none of them creating a session. An admitted peer's connection
// carries what Admit said of it, and Admit's request (here, with the route
// its credentials name) is the one the session is routed by.
func TestAdmitDecidesBeforeAnyWebRTCWork(t *testing.T) {
	routed := make(chan string, 4)
	ts := newTestServer(t, ServerConfig{
		Route: func(r *http.Request, _ func(string) int) (string, error) {
			route := r.URL.Query().Get("match")
			select {
			case routed <- route:
			default:
			}
			return route, nil
		},
		Admit: func(r *http.Request) (*http.Request, any, error) {
			switch tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "); tok {
			case "":
				return nil, nil, fmt.Errorf("join token required: %w", ErrUnauthorized)
			case "ada-for-2":
				r2 := r.Clone(r.Context())
				r2.URL.RawQuery = "match=2"
				return r2, peer{name: "ada"}, nil
			case "busy":
				return nil, nil, errors.New("too many join tokens in use")
			default:
				return nil, nil, fmt.Errorf("join token expired: %w", ErrForbidden)
			}
		},
	})
	for _, tc := range []struct {
		token, status, body string
	}{
		{"", "401", "join token required"},
		{"old", "403", "join token expired"},
		{"busy", "503", "too many join tokens in use"},
	} {
		cfg := ts.dialConfig(t, "refused")
		cfg.Token = tc.token
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // refused at once: a hang guard
		if tc.token == "busy" {
			// A 503 with Retry-After is retried until the context ends.
			cancel()
			ctx, cancel = context.WithTimeout(context.Background(), 1500*time.Millisecond)
		}
		_, err := Dial(ctx, ts.url, cfg)
		cancel()
		if err == nil || !strings.Contains(err.Error(), tc.status) || !strings.Contains(err.Error(), tc.body) {
			t.Errorf("token %q: %v, want %s %q", tc.token, err, tc.status, tc.body)
		}
	}
	st := ts.Stats()
	if st.RejectedAdmission < 3 || st.Answered != 0 || ts.Sessions() != 0 {
		t.Errorf("after the refusals: %+v, %d sessions; want 3+ refused by Admit, none answered or live", st, ts.Sessions())
	}
	<-routed // the capacity check's Route call, on the request as posted
	cfg := ts.dialConfig(t, "ada")
	cfg.Token = "ada-for-2"
	ts.dial(t, "ada", cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	c, err := ts.AcceptRoute(ctx, "2")
	if err != nil {
		t.Fatalf("the admitted peer is not on route 2: %v", err)
	}
	defer c.Close()
	a, ok := c.(interface{ Admission() any })
	if !ok || a.Admission() != (peer{name: "ada"}) {
		t.Errorf("the connection's admission: %v", c)
	}
}

// Settle hears once how each admitted offer ended: joined when its
// channels opened, not when its SDP broke after Admit or when its peer
// never connected (a route full after Admit: cmd/server's
// TestTokenRefusedForAFullMatchJoinsLater).
func TestSettleAfterAdmit(t *testing.T) {
	type settled struct {
		name   string
		joined bool
	}
	got := make(chan settled, 8)
	ts := newTestServer(t, ServerConfig{
		ConnectTimeout: 500 * time.Millisecond,
		Admit: func(r *http.Request) (*http.Request, any, error) {
			return r, peer{name: strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")}, nil
		},
		Settle: func(a any, joined bool) { got <- settled{a.(peer).name, joined} },
	})
	next := func() settled {
		t.Helper()
		select {
		case s := <-got:
			return s
		case <-time.After(2 * time.Minute):
			t.Fatal("Settle was not called")
			return settled{}
		}
	}
	// Joined.
	cfg := ts.dialConfig(t, "ada")
	cfg.Token = "ada"
	ts.dial(t, "ada", cfg)
	if s := next(); s != (settled{"ada", true}) {
		t.Errorf("a peer that connected: %+v", s)
	}
	// An SDP that pion refuses after Admit.
	req, _ := http.NewRequest(http.MethodPost, ts.url, strings.NewReader(offerJSON("offer", "v=0\r\no=- 0 0 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n")))
	req.Header.Set("Authorization", "Bearer broken")
	if resp, err := ts.http.Client().Do(req); err == nil {
		resp.Body.Close()
	}
	if s := next(); s != (settled{"broken", false}) {
		t.Errorf("a broken offer: %+v", s)
	}
	// A peer that answers nothing: the session times out.
	_, sdp := newRawPeer(t, goodChannels())
	req, _ = http.NewRequest(http.MethodPost, ts.url, strings.NewReader(offerJSON("offer", sdp)))
	req.Header.Set("Authorization", "Bearer silent")
	if resp, err := ts.http.Client().Do(req); err == nil {
		resp.Body.Close()
	}
	if s := next(); s != (settled{"silent", false}) {
		t.Errorf("a peer that never connected: %+v", s)
	}
	select {
	case s := <-got:
		t.Errorf("Settle called again: %+v", s)
	case <-time.After(200 * time.Millisecond):
	}
}

// Admit decides from the headers before the body is read: an offer whose
// body is garbage, or over MaxBodyBytes, is refused for its missing token
// (401), not for its body.
func TestAdmitBeforeTheBody(t *testing.T) {
	ts := newTestServer(t, ServerConfig{
		MaxBodyBytes: 1 << 10,
		Admit: func(r *http.Request) (*http.Request, any, error) {
			if r.Header.Get("Authorization") == "" {
				return nil, nil, fmt.Errorf("join token required: %w", ErrUnauthorized)
			}
			return r, peer{name: "x"}, nil
		},
	})
	for _, body := range []string{"garbage", strings.Repeat("x", 4<<10)} {
		req, _ := http.NewRequest(http.MethodPost, ts.url, strings.NewReader(body))
		resp, err := ts.http.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("a %d-byte body without a token: %d, want 401", len(body), resp.StatusCode)
		}
	}
	if st := ts.Stats(); st.RejectedAdmission != 2 || st.RejectedMalformed != 0 || st.RejectedTooLarge != 0 {
		t.Errorf("stats %+v: want 2 refused by Admit, none for the body", st)
	}
	code, body := post(t, ts, http.MethodPost, "application/json", "garbage")
	if code != http.StatusUnauthorized {
		t.Errorf("garbage without a token: %d %q", code, body)
	}
}
