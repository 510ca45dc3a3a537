package agones

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sightline-game/sightline/internal/testnet"
)

// syncBuffer is a buffer a program or a logger writes while the test reads it.
type syncBuffer = testnet.LockedBuffer

func testClient(s *sidecar, logs *syncBuffer) *Client {
	if logs == nil {
		logs = &syncBuffer{}
	}
	return New(Config{
		BaseURL:       "http://sidecar.test",
		HTTP:          &http.Client{Transport: transport{s}, Timeout: 5 * time.Second},
		Logger:        slog.New(slog.NewTextHandler(logs, nil)),
		HealthPeriod:  2 * time.Second,
		StartDeadline: 10 * time.Second,
		RetryMin:      100 * time.Millisecond,
		RetryMax:      2 * time.Second,
		PlayerPeriod:  time.Second,
	})
}

func ats(cs []call) []time.Duration {
	out := make([]time.Duration, len(cs))
	for i, c := range cs {
		out[i] = c.at
	}
	return out
}

func TestReadyAfterListeningNotBefore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSidecar()
		ctx, cancel := context.WithCancel(t.Context())
		l := NewLifecycle(testClient(s, nil), func() int { return 0 })
		listening := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			<-listening // what cmd/server does: Run once the HTTP listener is up
			done <- l.Run(ctx)
		}()
		time.Sleep(3 * time.Second) // the server takes 3 s to listen
		synctest.Wait()
		if n := len(s.allCalls()); n != 0 {
			t.Fatalf("%d calls to the sidecar before the server listened", n)
		}
		close(listening)
		synctest.Wait()
		calls := s.allCalls()
		if len(calls) == 0 || calls[0].route != "POST /ready" || calls[0].at != 3*time.Second {
			t.Fatalf("first call = %+v, want POST /ready at 3s", calls)
		}
		if got := s.snapshot().Status.State; got != "Ready" {
			t.Errorf("state = %q, want Ready", got)
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v, want nil after cancel", err)
		}
	})
}

func TestHealthAtThePeriod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSidecar()
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- NewLifecycle(testClient(s, nil), func() int { return 0 }).Run(ctx) }()
		time.Sleep(10*time.Second + time.Millisecond)
		synctest.Wait()
		got := ats(s.callsTo("POST /health"))
		want := []time.Duration{2 * time.Second, 4 * time.Second, 6 * time.Second, 8 * time.Second, 10 * time.Second}
		if len(got) != len(want) {
			t.Fatalf("health at %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("health at %v, want %v", got, want)
			}
		}
		cancel()
		<-done
	})
}

func TestShutdownOnlyWhenAllocatedAndEmpty(t *testing.T) {
	const ms = time.Millisecond
	type step struct {
		at       time.Duration
		players  int64
		allocate bool
		over     bool
	}
	tests := []struct {
		name         string
		steps        []step
		wantShutdown time.Duration // 0: never
	}{
		// Steps fall between the player samples (every whole second).
		{"allocated, players came and left", []step{{at: 2500 * ms, allocate: true}, {at: 3500 * ms, players: 2}, {at: 8500 * ms, players: 1}, {at: 12500 * ms, players: 0}}, 13 * time.Second},
		{"players came and left before allocation", []step{{at: 2500 * ms, players: 2}, {at: 5500 * ms, players: 0}}, 0},
		{"allocated, players stay connected", []step{{at: 1500 * ms, allocate: true}, {at: 2500 * ms, players: 3}, {at: 10500 * ms, players: 3, over: true}}, 0},
		{"allocated, match over, nobody came", []step{{at: 1500 * ms, allocate: true}, {at: 6500 * ms, over: true}}, 7 * time.Second},
		{"allocated, nobody came yet", []step{{at: 1500 * ms, allocate: true}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newSidecar()
				var players atomic.Int64
				l := NewLifecycle(testClient(s, nil), func() int { return int(players.Load()) })
				ctx, cancel := context.WithCancel(t.Context())
				done := make(chan error, 1)
				go func() { done <- l.Run(ctx) }()
				var now time.Duration
				for _, st := range tt.steps {
					time.Sleep(st.at - now)
					now = st.at
					if st.allocate {
						s.allocate()
					}
					if st.over {
						l.MatchOver()
					}
					players.Store(st.players)
				}
				time.Sleep(20*time.Second - now)
				synctest.Wait()
				sd := s.callsTo("POST /shutdown")
				if tt.wantShutdown == 0 {
					if len(sd) != 0 {
						t.Fatalf("shutdown at %v, want none", ats(sd))
					}
				} else {
					if len(sd) != 1 || sd[0].at != tt.wantShutdown {
						t.Fatalf("shutdown at %v, want once at %v", ats(sd), tt.wantShutdown)
					}
					if sd[0].players != "0" {
						t.Errorf("players label at shutdown = %q, want 0", sd[0].players)
					}
				}
				if got := s.snapshot().ObjectMeta.Labels["agones.dev/sdk-players"]; got != "" && got != itoa(players.Load()) {
					t.Errorf("players label = %q, want %d", got, players.Load())
				}
				cancel()
				if err := <-done; err != nil {
					t.Errorf("Run = %v", err)
				}
			})
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestSidecarDownAtStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSidecar()
		s.setDown(true)
		logs := &syncBuffer{}
		start := time.Now()
		err := NewLifecycle(testClient(s, logs), func() int { return 0 }).Run(t.Context())
		if !errors.Is(err, ErrSidecarUnavailable) {
			t.Fatalf("Run = %v, want ErrSidecarUnavailable", err)
		}
		if !errors.Is(err, errRefused) {
			t.Errorf("Run = %v, want the last cause wrapped", err)
		}
		ms := time.Millisecond
		want := []time.Duration{0, 100 * ms, 300 * ms, 700 * ms, 1500 * ms, 3100 * ms, 5100 * ms, 7100 * ms, 9100 * ms}
		if len(s.refused) != len(want) {
			t.Fatalf("tries at %v, want %v", s.refused, want)
		}
		for i := range want {
			if s.refused[i] != want[i] {
				t.Fatalf("tries at %v, want %v", s.refused, want)
			}
		}
		if el := time.Since(start); el != 9100*ms {
			t.Errorf("gave up after %v, want 9.1s (next try would pass the 10s deadline)", el)
		}
		if n := strings.Count(logs.String(), "retrying"); n != len(want)-1 {
			t.Errorf("%d retries logged, want %d", n, len(want)-1)
		}
	})
}

func TestSidecarSlowAtStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSidecar()
		s.setDown(true)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- NewLifecycle(testClient(s, nil), func() int { return 0 }).Run(ctx) }()
		time.Sleep(time.Second)
		s.setDown(false)
		time.Sleep(time.Second)
		synctest.Wait()
		r := s.callsTo("POST /ready")
		if len(r) != 1 || r[0].at != 1500*time.Millisecond {
			t.Fatalf("ready at %v, want once at 1.5s (the try after the sidecar came up)", ats(r))
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
}

func TestWaitGameServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSidecar()
		s.setDown(true)
		go func() {
			time.Sleep(2 * time.Second)
			s.setDown(false)
		}()
		start := time.Now()
		gs, err := testClient(s, nil).WaitGameServer(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if gs.Status.Address != "203.0.113.9" || len(gs.Status.Ports) != 2 {
			t.Errorf("GameServer = %+v", gs)
		}
		if el := time.Since(start); el != 3100*time.Millisecond {
			t.Errorf("answered after %v, want 3.1s (the first try after 2s)", el)
		}
	})
}

func TestSidecarDownLater(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSidecar()
		logs := &syncBuffer{}
		var players atomic.Int64
		players.Store(1)
		l := NewLifecycle(testClient(s, logs), func() int { return int(players.Load()) })
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- l.Run(ctx) }()
		time.Sleep(5 * time.Second)
		s.setDown(true)
		time.Sleep(5 * time.Second)
		select {
		case err := <-done:
			t.Fatalf("Run returned %v while the sidecar was down; the match must keep running", err)
		default:
		}
		if !strings.Contains(logs.String(), "health ping failed") || !strings.Contains(logs.String(), "watch ended") {
			t.Errorf("the outage was not logged:\n%s", logs.String())
		}
		s.setDown(false)
		s.allocate()                        // allocated while the watch was broken
		time.Sleep(5500 * time.Millisecond) // off the whole-second player samples
		synctest.Wait()
		var after []time.Duration
		for _, at := range ats(s.callsTo("POST /health")) {
			if at > 10*time.Second {
				after = append(after, at)
			}
		}
		if len(after) != 2 {
			t.Errorf("health after the sidecar came back at %v, want 2 pings", after)
		}
		if ok, labels := l.Allocated(); !ok || labels["match"] != "m-42" {
			t.Errorf("Allocated = %v %v, want true with match=m-42 (the watch reconnected)", ok, labels)
		}
		players.Store(0)
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if sd := s.callsTo("POST /shutdown"); len(sd) != 1 || sd[0].at != 16*time.Second {
			t.Errorf("shutdown at %v, want once at 16s", ats(sd))
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
}

// TestOverHTTP runs the client against the stand-in over a real socket.
func TestOverHTTP(t *testing.T) {
	s := newSidecar()
	srv := httptest.NewServer(s)
	defer srv.Close()
	c := New(Config{BaseURL: srv.URL, Logger: slog.New(slog.DiscardHandler)})
	ctx := t.Context()
	if err := c.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.SetPlayers(ctx, 3); err != nil {
		t.Fatal(err)
	}
	gs, err := c.GameServer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if gs.Status.State != "Ready" || gs.ObjectMeta.Labels["agones.dev/sdk-players"] != "3" {
		t.Errorf("GameServer = %+v", gs)
	}
	wctx, cancel := context.WithCancel(ctx)
	seen := make(chan GameServer, 8)
	go c.Watch(wctx, func(gs GameServer) { seen <- gs })
	if first := <-seen; first.Status.State != "Ready" {
		t.Errorf("first watched state = %q, want Ready", first.Status.State)
	}
	s.allocate()
	if next := <-seen; next.Status.State != StateAllocated {
		t.Errorf("watched state = %q, want Allocated", next.Status.State)
	}
	cancel()
	l := NewLifecycle(c, func() int { return 0 })
	l.observe(gs)
	for _, tt := range []struct {
		names []string
		port  int
	}{{nil, 7001}, {[]string{"udp", "game"}, 7002}, {[]string{"game"}, 0}} {
		addr, port, ok := l.Endpoint(tt.names...)
		if addr != "203.0.113.9" || port != tt.port || ok != (tt.port != 0) {
			t.Errorf("Endpoint(%v) = %q %d %v, want port %d", tt.names, addr, port, ok, tt.port)
		}
	}
	if err := c.do(ctx, http.MethodGet, "/nope", nil, nil); !errors.Is(err, ErrRejected) {
		t.Errorf("unknown path: %v, want ErrRejected", err)
	}
}
