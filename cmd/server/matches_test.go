package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// syncBuffer is a buffer a program or a logger writes while the test reads it.
type syncBuffer = testnet.LockedBuffer

// runServer runs the server of o until the test ends, and returns the
// context it runs in (ended at the test's end) and its logger, whose lines
// the test shows if it fails.
func runServer(t *testing.T, o options) (context.Context, *slog.Logger) {
	t.Helper()
	if o.metricsAddr == "" {
		o.metricsAddr = "127.0.0.1:0" // not the HTTP port + 1, which may be taken
	}
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, log, o) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	return ctx, log
}

// One process hosts three matches on one HTTP address and one UDP port:
// GET /matches lists them, an offer names its match (or lets the server
// pick the fullest with room), an unknown match is a 404 and a full one
// "server full".
func TestServerHostsMatches(t *testing.T) {
	httpPort, udpPort := testnet.FreePort(t, "tcp"), testnet.FreePort(t, "udp")
	base := fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	counters := fmt.Sprintf("127.0.0.1:%d", testnet.FreePort(t, "tcp"))
	ctx, log := runServer(t, options{
		addr: fmt.Sprintf("127.0.0.1:%d", httpPort), udpPort: udpPort, tick: 30, bots: 1, matches: 3, seed: 1, creatures: 10,
		maxClients: 2, maxSpectators: 1, timeout: 5 * time.Second, loopback: true, rate: 4000, radius: 400, web: t.TempDir(),
		name: "test", offerRate: 100, offerBurst: 100, metricsAddr: counters,
	})
	list := func() []client.MatchInfo {
		t.Helper()
		lctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // a hang guard
		defer cancel()
		ms, err := client.ListMatches(lctx, base)
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	// waitPlayers waits until the matches have these players (people and bots).
	waitPlayers := func(want ...int) []client.MatchInfo {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for {
			var ms []client.MatchInfo
			if resp, err := http.Get(base + "/healthz"); err == nil {
				resp.Body.Close()
				ms = list()
				got := make([]int, len(ms))
				for i, m := range ms {
					got[i] = m.Players
				}
				if fmt.Sprint(got) == fmt.Sprint(want) {
					return ms
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("matches %+v, want players %v", ms, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	ms := waitPlayers(1, 1, 1) // each match's bot
	for i, m := range ms {
		id := fmt.Sprint(i + 1)
		if m.ID != id || m.Name != "Match "+id || m.Bots != 1 || m.Capacity != 3 || m.Round != 1 || m.TimeLeftS <= 0 || m.TimeLeftS > 300 || m.Intermission {
			t.Errorf("match %d listed as %+v", i+1, m)
		}
	}

	dial := func(match string) *client.Client {
		t.Helper()
		dctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // a hang guard
		defer cancel()
		c, err := client.Dial(dctx, base, client.Config{Match: match, Logger: log}, webrtc.DialConfig{Logger: log})
		if err != nil {
			t.Fatalf("dial match %q: %v", match, err)
		}
		t.Cleanup(func() { c.Close() })
		go c.Run(ctx, 30, nil)
		return c
	}
	dial("2")
	waitPlayers(1, 2, 1)
	dial("") // the fullest with room: match 2
	waitPlayers(1, 3, 1)
	dial("") // match 2 is full: the first of the others
	waitPlayers(2, 3, 1)

	// Match 2 is full of players, yet takes a spectator, who is not one of
	// its players; a second spectator finds no room (-max-spectators 1).
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // a hang guard
	defer cancel()
	watcher, err := client.Dial(wctx, base, client.Config{Match: "2", Watch: true, Logger: log}, webrtc.DialConfig{Logger: log})
	if err != nil {
		t.Fatalf("watch match 2: %v", err)
	}
	t.Cleanup(func() { watcher.Close() })
	go watcher.Run(ctx, 30, nil)
	for deadline := time.Now().Add(2 * time.Minute); ; {
		ms := waitPlayers(2, 3, 1)
		if ms[1].Spectators == 1 && ms[1].SpectatorCapacity == 1 && ms[0].Spectators == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("matches %+v, want one spectator of match 2", ms)
		}
		time.Sleep(50 * time.Millisecond)
	}

	post := func(method, path string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(`{"type":"offer","sdp":"v=0","version":3}`))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, tc := range []struct {
		method, path string
		code         int
		body         string
	}{
		{"POST", "/signal?match=2", 503, "server full\n"},
		{"POST", "/signal?match=2&watch=1", 503, "server full\n"},
		{"POST", "/signal?match=9", 404, `no match "9" on this server (GET /matches lists them)` + "\n"},
		{"POST", "/matches", 405, "method not allowed\n"},
		{"DELETE", "/matches", 405, "method not allowed\n"},
	} {
		if code, body := post(tc.method, tc.path); code != tc.code || body != tc.body {
			t.Errorf("%s %s: %d %q, want %d %q", tc.method, tc.path, code, body, tc.code, tc.body)
		}
	}

	// The counters are on -metrics-addr, not the public address.
	for _, path := range []string{"/metrics", "/debug/vars", "/debug/gc"} {
		if code, _ := post("GET", path); code != http.StatusNotFound {
			t.Errorf("GET %s on the public address: %d, want 404", path, code)
		}
	}
	if m := get(t, "http://"+counters+"/metrics"); !strings.Contains(m, `sightline_players{match="3"}`) {
		t.Errorf("-metrics-addr's /metrics has no sightline_players of match 3:\n%s", m)
	}
	// /debug/vars: "match" is the first match's counters, "matches" the list.
	resp, err := http.Get("http://" + counters + "/debug/vars")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var vars struct {
		Match   server.Stats       `json:"match"`
		Matches []client.MatchInfo `json:"matches"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&vars); err != nil {
		t.Fatal(err)
	}
	if vars.Match.Clients != 2 || vars.Match.Joined != 2 || len(vars.Matches) != 3 || vars.Matches[1].Players != 3 {
		t.Errorf("/debug/vars: match %+v, matches %+v", vars.Match, vars.Matches)
	}
}

func TestRoundsOver(t *testing.T) {
	for _, tc := range []struct {
		st   server.Stats
		want uint32
	}{
		{server.Stats{}, 0},
		{server.Stats{Round: 1}, 0},
		{server.Stats{Round: 1, Intermission: true}, 1},
		{server.Stats{Round: 3}, 2},
		{server.Stats{Round: 3, Intermission: true}, 3},
	} {
		if got := roundsEnded(tc.st); got != tc.want {
			t.Errorf("roundsEnded(round %d, intermission %v) = %d, want %d", tc.st.Round, tc.st.Intermission, got, tc.want)
		}
	}
	for _, tc := range []struct {
		start, now []uint32
		want       bool
	}{
		{[]uint32{0}, []uint32{0}, false},
		{[]uint32{0}, []uint32{1}, true},
		{[]uint32{0, 2}, []uint32{1, 2}, false},
		{[]uint32{0, 2}, []uint32{1, 3}, true},
	} {
		if got := allRoundsOver(tc.start, tc.now); got != tc.want {
			t.Errorf("allRoundsOver(%v, %v) = %v", tc.start, tc.now, got)
		}
	}
}

// -creatures 0 means no creature at all (the arena's zero would be its
// default of 300); other counts pass as they are.
func TestCreaturesFlag(t *testing.T) {
	for flagValue, want := range map[int]int{0: 0, 10: 10, arena.DefaultCreatures: arena.DefaultCreatures} {
		w, err := arena.NewWorld(worldConfig(options{creatures: flagValue, maxClients: 4, bots: 1}, 0))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range w.AppendEntities(nil) {
			if e.Kind == arena.KindCreature {
				n++
			}
		}
		if n != want {
			t.Errorf("-creatures %d: %d creatures in the world, want %d", flagValue, n, want)
		}
	}
}
