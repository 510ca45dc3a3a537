//go:build !js

package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/testnet"
)

// joinStages joins baseURL and returns the error and the stages reached.
func joinStages(t *testing.T, baseURL string, cfg ConnectConfig) (error, []string) {
	t.Helper()
	var mu sync.Mutex
	var names []string
	cfg.OnStage = func(s Stage) {
		mu.Lock()
		defer mu.Unlock()
		names = append(names, s.Name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard against a hang
	defer cancel()
	conn, err := Connect(ctx, baseURL, cfg)
	if err == nil {
		conn.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	return err, names
}

// A join that fails says why, from where it failed: a closed port cannot
// be reached; a server that answers but whose UDP is dropped fails ICE and
// names UDP and -public-ip; a server that refuses says so in its words.
func TestFailedJoinNamesItsCause(t *testing.T) {
	t.Run("closed port", func(t *testing.T) {
		target := fmt.Sprintf("http://127.0.0.1:%d", testnet.FreePort(t, "tcp"))
		err, stages := joinStages(t, target, ConnectConfig{})
		if !errors.Is(err, ErrUnreachable) {
			t.Fatalf("join: %v, want ErrUnreachable", err)
		}
		if want := []string{StageICEServers, StageOfferSent}; !slices.Equal(stages, want) {
			t.Errorf("stages %q, want %q", stages, want)
		}
		f := Explain(err, target)
		if !strings.Contains(f.Cause, "Cannot reach the server at "+target) || !strings.Contains(f.Try, "HOST:PORT") {
			t.Errorf("explained as %q", f)
		}
	})
	t.Run("udp dropped", func(t *testing.T) {
		bh := testnet.NewBlackHole(t)
		err, stages := joinStages(t, bh.URL, ConnectConfig{ICETimeout: 2 * time.Second})
		if !errors.Is(err, ErrICEFailed) {
			t.Fatalf("join: %v, want ErrICEFailed", err)
		}
		if want := []string{StageICEServers, StageOfferSent, StageAnswer, StageChecking}; !slices.Equal(stages, want) {
			t.Errorf("stages %q, want %q", stages, want)
		}
		f := Explain(err, bh.URL)
		for _, w := range []string{"ICE failed", "UDP", "8443", "-public-ip", "relay"} {
			if !strings.Contains(f.String(), w) {
				t.Errorf("explained as %q, without %q", f, w)
			}
		}
	})
	for _, c := range []struct {
		status       int
		reason, want string
	}{
		{http.StatusForbidden, "token expired", "refused your join token (token expired)"},
		{http.StatusUnauthorized, "join token required", "invited players only"},
		{http.StatusBadRequest, "protocol version 1; this server speaks 9", "another version of the game"},
		{http.StatusServiceUnavailable, "server full", "The match is full."},
	} {
		t.Run(fmt.Sprint(c.status), func(t *testing.T) {
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, c.reason, c.status)
			}))
			defer hs.Close()
			err, stages := joinStages(t, hs.URL, ConnectConfig{})
			if err == nil || errors.Is(err, ErrUnreachable) {
				t.Fatalf("join: %v, want a refusal", err)
			}
			if want := []string{StageICEServers, StageOfferSent}; !slices.Equal(stages, want) {
				t.Errorf("stages %q, want %q", stages, want)
			}
			if f := Explain(err, hs.URL); !strings.Contains(f.Cause, c.want) {
				t.Errorf("explained as %q, want %q", f, c.want)
			}
		})
	}
	if f := Explain(fmt.Errorf("desktop: %w", ErrNoSnapshot), "x"); !strings.Contains(f.Cause, "no snapshot") {
		t.Errorf("no snapshot explained as %q", f)
	}
}
