//go:build !js

package webrtc

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// errBody is a request body that breaks off before its end.
type errBody struct{}

func (errBody) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

// The answers of docs/PROTOCOL.md §1, each 400 body with its cause, and
// what the offer rate limit counts: every POST takes a token before
// anything else is looked at (one refused 413 or 400 as much as one
// answered), a wrong method none, and an offer refused 429 none either, so
// that refusals do not push the next token back.
func TestSpecSignallingAnswers(t *testing.T) {
	const burst = 8
	ts := newTestServer(t, ServerConfig{
		OfferRate:    0.01, // no token comes back during the test
		OfferBurst:   burst,
		MaxBodyBytes: 200,
		ClientKey:    headerClientKey,
	})
	for _, tc := range []struct {
		name, body string
		code       int
		text       string // the whole body, or its start when it ends with ": "
	}{
		{"over MaxBodyBytes", strings.Repeat("x", 201), http.StatusRequestEntityTooLarge, "offer too large"},
		{"not JSON", "hello, server", http.StatusBadRequest, "not an offer"},
		{"empty", "", http.StatusBadRequest, "not an offer"},
		{"an answer", `{"type":"answer","sdp":"v=0","version":5}`, http.StatusBadRequest, "not an offer"},
		{"no version", `{"type":"offer","sdp":"v=0"}`, http.StatusBadRequest, "protocol version 1; this server speaks 5"},
		{"no SDP", `{"type":"offer","version":5}`, http.StatusBadRequest, "malformed SDP: empty"},
		{"broken SDP", offerJSON("offer", "v=0\r\nthis is not sdp\r\n"), http.StatusBadRequest, "malformed SDP: "},
	} {
		code, body, _ := postAs(t, ts, "a", tc.body)
		if code != tc.code || (body != tc.text && !(strings.HasSuffix(tc.text, ": ") && strings.HasPrefix(body, tc.text) && len(body) > len(tc.text))) {
			t.Errorf("%s: %d %q, want %d %q", tc.name, code, body, tc.code, tc.text)
		}
	}
	// A wrong method counts for nothing.
	req, _ := http.NewRequest(http.MethodGet, ts.url, nil)
	req.Header.Set(clientHeader, "a")
	if resp, err := ts.http.Client().Do(req); err != nil || resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
		t.Fatalf("GET: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	// A body that breaks off: "bad request", the burst's last token.
	rec := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/signal", errBody{})
	r.Header.Set(clientHeader, "a")
	ts.ServeHTTP(rec, r)
	if got := strings.TrimSpace(rec.Body.String()); rec.Code != http.StatusBadRequest || got != "bad request" {
		t.Fatalf("a broken body: %d %q", rec.Code, got)
	}
	// The eight refusals took the eight tokens: the next offers are 429,
	// each with the same wait, however many are refused.
	var waits []string
	for range 3 {
		code, body, retry := postAs(t, ts, "a", "hello")
		if code != http.StatusTooManyRequests || body != "too many offers" {
			t.Fatalf("after the burst: %d %q", code, body)
		}
		waits = append(waits, retry)
	}
	if waits[0] != "100" || waits[1] != waits[0] || waits[2] != waits[0] {
		t.Fatalf("Retry-After %v, want 100 s each time: a refused offer takes no token", waits)
	}
	if st := ts.Stats(); st.Offers != burst+3 || st.RejectedMalformed != burst-1 || st.RejectedTooLarge != 1 || st.RejectedRate != 3 {
		t.Fatalf("stats %+v", st)
	}
	// The limiter alone: refusals leave the bucket as it was.
	l := newOfferLimiter(2, 1, 10)
	now := time.Unix(1000, 0)
	if ok, _ := l.Allow("b", now); !ok {
		t.Fatal("first offer refused")
	}
	for range 10 {
		if ok, d := l.Allow("b", now); ok || d != 500*time.Millisecond {
			t.Fatalf("refused offer: %v %v", ok, d)
		}
	}
	if ok, _ := l.Allow("b", now.Add(500*time.Millisecond)); !ok {
		t.Fatal("the token refills 500 ms after the last one taken, whatever was refused in between")
	}
}
