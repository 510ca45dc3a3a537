package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// arenaServer is a match of the real game for seed, taking maxClients.
func arenaServer(t *testing.T, seed uint64, maxClients int) *server.Server {
	t.Helper()
	w, err := arena.NewWorld(arena.Config{Seed: seed, Creatures: 8, MaxPlayers: maxClients})
	if err != nil {
		t.Fatal(err)
	}
	return newServer(t, server.Config{TickRate: tickRate, MaxClients: maxClients}, server.NewMatch(w))
}

func newHost(t *testing.T, ms ...server.Hosted) *server.Host {
	t.Helper()
	h, err := server.NewHost(ms...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHostPick(t *testing.T) {
	// Three matches of 8 seats: "a" and "c" with 4 bots, "b" with none.
	h := newHost(t,
		server.Hosted{ID: "a", Name: "A", Server: arenaServer(t, 1, 8), Bots: 4},
		server.Hosted{ID: "b", Name: "B", Server: arenaServer(t, 2, 8)},
		server.Hosted{ID: "c", Name: "C", Server: arenaServer(t, 3, 8), Bots: 4},
	)
	for _, tc := range []struct {
		name    string
		id      string
		people  map[string]int
		want    string
		wantErr error
	}{
		{"named, room", "b", nil, "b", nil},
		{"named, full with bots and people", "a", map[string]int{"a": 4}, "", server.ErrMatchFull},
		{"named, one seat left", "a", map[string]int{"a": 3}, "a", nil},
		{"unknown", "zz", nil, "", server.ErrNoMatch},
		{"unnamed: the fullest with room, first among equals", "", nil, "a", nil},
		{"unnamed: people count", "", map[string]int{"c": 1}, "c", nil},
		{"unnamed: the fullest is full", "", map[string]int{"a": 4, "c": 2, "b": 1}, "c", nil},
		{"unnamed: people without bots", "", map[string]int{"a": 4, "c": 4, "b": 7}, "b", nil},
		{"unnamed: all full", "", map[string]int{"a": 4, "c": 4, "b": 8}, "", server.ErrMatchFull},
	} {
		got, err := h.Pick(tc.id, func(id string) int { return tc.people[id] })
		if got != tc.want || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
			t.Errorf("%s: Pick(%q) = %q, %v; want %q, %v", tc.name, tc.id, got, err, tc.want, tc.wantErr)
		}
	}
	for _, tc := range []struct {
		name string
		ms   []server.Hosted
	}{
		{"none", nil},
		{"no ID", []server.Hosted{{Server: arenaServer(t, 1, 8)}}},
		{"no server", []server.Hosted{{ID: "a"}}},
		{"twice one ID", []server.Hosted{{ID: "a", Server: arenaServer(t, 1, 8)}, {ID: "a", Server: arenaServer(t, 2, 8)}}},
	} {
		if _, err := server.NewHost(tc.ms...); !errors.Is(err, server.ErrBadHost) {
			t.Errorf("NewHost, %s: %v, want ErrBadHost", tc.name, err)
		}
	}
}

// GET /matches lists every match with its players (people and bots), its
// capacity, its round and the time left in it.
func TestHostListsMatches(t *testing.T) {
	a, b := arenaServer(t, 1, 8), arenaServer(t, 2, 6)
	h := newHost(t, server.Hosted{ID: "1", Name: "Match 1", Server: a}, server.Hosted{ID: "2", Name: "Match 2", Server: b, Bots: 1})
	epoch := time.Unix(1_700_000_000, 0)
	var clock time.Duration
	// Three players in match 2 (one of them its bot), none in match 1.
	var clients []*client.Client
	for i := range 3 {
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{ServerToClient: linksim.Config{}, ClientToServer: linksim.Config{}, Seed: uint64(i + 1),
			Now: func() time.Duration { return clock }})
		if err != nil {
			t.Fatal(err)
		}
		b.Add(srvEnd)
		clients = append(clients, client.New(cliEnd, client.Config{}))
	}
	const ticks = 90
	for i := range ticks {
		clock = time.Duration(i+1) * time.Second / tickRate
		now := epoch.Add(clock)
		a.Step(now)
		b.Step(now)
		for _, c := range clients {
			c.Poll()
			c.SendInput(arena.Input{})
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", client.MatchesPath, nil))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("GET: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	var list client.MatchList
	if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil {
		t.Fatalf("%v: %s", err, rec.Body)
	}
	// The round started on tick 0 and lasts arena.DefaultRoundTicks.
	left := float64(arena.DefaultRoundTicks-ticks) / tickRate
	want := []client.MatchInfo{
		{ID: "1", Name: "Match 1", Players: 0, Capacity: 8, SpectatorCapacity: server.DefaultMaxSpectators, Round: 1, TimeLeftS: left},
		{ID: "2", Name: "Match 2", Players: 3, Bots: 1, Capacity: 6, SpectatorCapacity: server.DefaultMaxSpectators, Round: 1, TimeLeftS: left},
	}
	if len(list.Matches) != len(want) {
		t.Fatalf("listed %+v, want %+v", list.Matches, want)
	}
	for i, m := range list.Matches {
		w := want[i]
		if math.Abs(m.TimeLeftS-w.TimeLeftS) > 0.05 {
			t.Errorf("match %s: %.3f s left, want %.3f", m.ID, m.TimeLeftS, w.TimeLeftS)
		}
		// Measured, in milliseconds (a busy machine makes it anything
		// from a fraction of one to hundreds).
		if m.TickP99Ms <= 0 || m.TickP99Ms > 10_000 {
			t.Errorf("match %s: tick p99 %.2f ms", m.ID, m.TickP99Ms)
		}
		// Overruns count ticks slower than real time: a loaded machine
		// makes them, whatever the code.
		m.TimeLeftS, w.TimeLeftS, m.TickP99Ms, m.Overruns = 0, 0, 0, 0
		if m != w {
			t.Errorf("listed %+v, want %+v", m, w)
		}
	}
	if p := h.People(); p != 2 {
		t.Errorf("People() = %d, want 2", p)
	}
	if n, c := h.Players(); n != 3 || c != 14 {
		t.Errorf("Players() = %d of %d, want 3 of 14", n, c)
	}
	for _, method := range []string{"POST", "PUT", "DELETE"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(method, client.MatchesPath, strings.NewReader("{}")))
		if rec.Code != http.StatusMethodNotAllowed || rec.Body.String() != "method not allowed\n" || rec.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d %q Allow %q", method, rec.Code, rec.Body, rec.Header().Get("Allow"))
		}
	}
}

// stuckWorld is a world whose Step waits until it is let go.
type stuckWorld struct {
	server.World
	stuck   chan struct{} // closed on the first Step
	release chan struct{}
	once    sync.Once
}

func (w *stuckWorld) Step() {
	w.once.Do(func() { close(w.stuck) })
	<-w.release
	w.World.Step()
}

// The matches of a host tick apart: one match's tick that never ends holds
// back no other, and each match receives only its own connections.
func TestHostRunsMatchesApart(t *testing.T) {
	walkers, err := newWalkers(50, 0.3, tickRate, 1, 8)
	if err != nil {
		t.Fatal(err)
	}
	sw := &stuckWorld{World: walkers, stuck: make(chan struct{}), release: make(chan struct{})}
	stuck := newServer(t, server.Config{TickRate: tickRate, MaxClients: 8}, sw)
	free := arenaServer(t, 2, 8)
	h := newHost(t, server.Hosted{ID: "stuck", Server: stuck}, server.Hosted{ID: "free", Server: free})
	queues := map[string]chan transport.Conn{"stuck": make(chan transport.Conn, 4), "free": make(chan transport.Conn, 4)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- h.Run(ctx, func(ctx context.Context, id string) (transport.Conn, error) {
			select {
			case c := <-queues[id]:
				return c, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	}()
	defer func() {
		close(sw.release)
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	<-sw.stuck
	began := time.Now()
	srvEnd, cliEnd, err := memory.NewPair(memory.Config{Seed: 1, Now: func() time.Duration { return time.Since(began) }})
	if err != nil {
		t.Fatal(err)
	}
	defer cliEnd.Close()
	queues["free"] <- srvEnd
	from := free.Stats().Tick
	deadline := time.Now().Add(2 * time.Minute)
	for {
		st := free.Stats()
		if st.Tick >= from+15 && st.Clients == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the free match went from tick %d to %d with %d clients while the other was stuck", from, st.Tick, st.Clients)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := stuck.Stats(); st.Tick != 0 || st.Clients != 0 {
		t.Errorf("the stuck match: tick %d, %d clients; want 0, 0", st.Tick, st.Clients)
	}
}
