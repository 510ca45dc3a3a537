package datachan

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestOfferBody(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(OfferBody("v=0\r\n", 7), &m); err != nil {
		t.Fatal(err)
	}
	if m["type"] != "offer" || m["sdp"] != "v=0\r\n" || m["version"] != float64(7) {
		t.Fatalf("offer body %v", m)
	}
	m = nil
	if err := json.Unmarshal(OfferBody("v=0\r\n", 0), &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["version"]; ok || m["type"] != "offer" {
		t.Fatalf("offer body of no version %v", m)
	}
}

func TestResponse(t *testing.T) {
	sdp, err := Response(200, "200 OK", "", []byte(`{"type":"answer","sdp":"v=0"}`))
	if err != nil || sdp != "v=0" {
		t.Fatalf("answer: %q, %v", sdp, err)
	}
	if _, err := Response(200, "200 OK", "", []byte(`{"type":"offer","sdp":"v=0"}`)); !errors.Is(err, ErrSignalling) || !errors.Is(err, ErrNotAnswer) {
		t.Fatalf("an offer for an answer: %v", err)
	}

	_, err = Response(503, "503 Service Unavailable", "5", []byte("server full\n"))
	var later *RetryLater
	if !errors.As(err, &later) || later.After != 5*time.Second {
		t.Fatalf("503 with Retry-After 5: %v", err)
	}
	if !errors.Is(err, ErrSignalling) || !strings.Contains(err.Error(), "503 Service Unavailable: server full") {
		t.Fatalf("refusal text: %v", err)
	}
	for _, tc := range []struct {
		status     int
		retryAfter string
	}{
		{429, ""}, {429, "0"}, {429, "61"}, {429, "soon"}, {400, "1"}, {500, "1"},
	} {
		_, err := Response(tc.status, "", tc.retryAfter, []byte("no"))
		if err == nil || errors.As(err, &later) {
			t.Errorf("status %d, Retry-After %q: %v, want a plain refusal", tc.status, tc.retryAfter, err)
		}
	}
	if _, err := Response(429, "429", "60", nil); !errors.As(err, &later) || later.After != time.Minute {
		t.Errorf("Retry-After 60: %v", err)
	}
}

func TestExchangeRetries(t *testing.T) {
	posts := 0
	var waits []time.Duration
	answer, err := Exchange(context.Background(), func(context.Context) (string, error) {
		posts++
		if posts < 3 {
			return Response(429, "429", "1", []byte("too many offers"))
		}
		return "v=0", nil
	}, func(d time.Duration, err error) {
		if !errors.Is(err, ErrSignalling) {
			t.Errorf("onRetry given %v", err)
		}
		waits = append(waits, d)
	})
	if err != nil || answer != "v=0" || posts != 3 || len(waits) != 2 || waits[0] != time.Second {
		t.Fatalf("answer %q, err %v, %d posts, waits %v", answer, err, posts, waits)
	}
}

func TestExchangeGivesUp(t *testing.T) {
	// A final refusal is returned at once.
	posts := 0
	_, err := Exchange(context.Background(), func(context.Context) (string, error) {
		posts++
		return Response(400, "400 Bad Request", "", []byte("not an offer"))
	}, nil)
	if posts != 1 || !errors.Is(err, ErrSignalling) {
		t.Fatalf("%d posts, %v", posts, err)
	}
	// A wait beyond the deadline is not taken: the refusal is returned
	// as it came, with no wait begun (onRetry not told) and not ended by
	// the context.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	posts, waits := 0, 0
	_, err = Exchange(ctx, func(context.Context) (string, error) {
		posts++
		return Response(503, "503", "60", []byte("server full"))
	}, func(time.Duration, error) { waits++ })
	var later *RetryLater
	if posts != 1 || waits != 0 || !errors.As(err, &later) || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%d posts, %d waits, %v", posts, waits, err)
	}
	// A context that ends during the wait ends it.
	ctx2, cancel2 := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel2)
	_, err = Exchange(ctx2, func(context.Context) (string, error) {
		return Response(503, "503", "1", []byte("too many connecting"))
	}, nil)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrSignalling) {
		t.Fatalf("ended during the wait: %v", err)
	}
}

func TestShorten(t *testing.T) {
	if got := Shorten("héllo", 2); got != "h..." {
		t.Fatalf("Shorten cut inside a rune: %q", got)
	}
	if got := Shorten("abc", 3); got != "abc" {
		t.Fatalf("Shorten changed a short string: %q", got)
	}
}
