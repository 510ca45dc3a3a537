package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
	"golang.org/x/time/rate"
)

// capacityOptions set up the capacity search (-capacity).
type capacityOptions struct {
	Players  int     // per match, people and bots
	People   int     // of Players, real WebRTC clients over loopback
	Seconds  float64 // measured per trial, after the warm-up
	Warmup   time.Duration
	TickRate float64
	Max      int // most matches tried
	Logger   *slog.Logger
}

// trial is what one run of n matches measured.
type trial struct {
	Matches      int     `json:"matches"`
	Connected    int     `json:"connected"`   // people connected, of Matches*People
	TickP99Ms    float64 `json:"tick_p99_ms"` // the worst match's
	TickP50Ms    float64 `json:"tick_p50_ms"` // the worst match's
	Overruns     uint64  `json:"overruns"`    // over all matches, while measured
	Mismatched   uint64  `json:"mismatched_ticks"`
	Verified     uint64  `json:"verified_ticks"`
	HeapPerMatch float64 `json:"heap_per_match_bytes"` // live heap after a collection, less the one before the matches, per match
	Pass         bool    `json:"pass"`
	Err          string  `json:"error,omitempty"`
}

// capacityResult is what -capacity prints with -json.
type capacityResult struct {
	Players   int     `json:"players_per_match"`
	People    int     `json:"people_per_match"`
	TickRate  float64 `json:"tick_hz"`
	LimitMs   float64 `json:"limit_tick_p99_ms"`
	CPUs      int     `json:"cpus"`
	Holds     int     `json:"holds_matches"` // the most matches that passed
	Trials    []trial `json:"trials"`
	MaxTested bool    `json:"max_tested,omitempty"` // Holds is -capacity-max: the limit may be higher
}

// capacity finds the most matches this machine holds at the tick rate:
// each with o.Players players (o.People of them WebRTC clients over
// loopback, the rest bots) and its creatures, held means the worst match's
// tick p99 under half the period, no overrun and no mismatched tick. It
// doubles the matches until a trial fails, then bisects.
func capacity(ctx context.Context, o capacityOptions, report func(trial)) capacityResult {
	period := time.Duration(float64(time.Second) / o.TickRate)
	r := capacityResult{Players: o.Players, People: o.People, TickRate: o.TickRate, LimitMs: float64((period / 2).Microseconds()) / 1000, CPUs: runtime.NumCPU()}
	try := func(n int) bool {
		t := runTrial(ctx, o, n, period/2)
		r.Trials = append(r.Trials, t)
		report(t)
		return t.Pass
	}
	good, bad := 0, 0
	for n := 1; ctx.Err() == nil; n *= 2 {
		n = min(n, o.Max)
		if !try(n) {
			bad = n
			break
		}
		good = n
		if n == o.Max {
			r.MaxTested = true
			break
		}
	}
	for bad > good+1 && ctx.Err() == nil {
		mid := (good + bad) / 2
		if try(mid) {
			good = mid
		} else {
			bad = mid
		}
	}
	r.Holds = good
	return r
}

// liveHeap runs a full collection and returns the live heap.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// runTrial runs n matches in this process on one HTTP listener and one UDP
// port, as cmd/server -matches n does, connects their people, measures for
// o.Seconds after o.Warmup, and tears everything down.
func runTrial(parent context.Context, o capacityOptions, n int, limit time.Duration) (t trial) {
	t.Matches = n
	fail := func(err error) trial {
		t.Err = err.Error()
		return t
	}
	heap0 := liveHeap()
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	ms := make([]server.Hosted, n)
	for i := range ms {
		w, err := arena.NewWorld(arena.Config{Seed: uint64(i + 1), Creatures: arena.DefaultCreatures, MaxPlayers: o.Players})
		if err != nil {
			return fail(err)
		}
		srv, err := server.New(server.Config{TickRate: o.TickRate, MaxClients: o.Players, Verify: true}, server.NewMatch(w))
		if err != nil {
			return fail(err)
		}
		ms[i] = server.Hosted{ID: strconv.Itoa(i + 1), Server: srv, Bots: o.Players - o.People}
	}
	host, err := server.NewHost(ms...)
	if err != nil {
		return fail(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	rtc, err := webrtc.NewServer(webrtc.ServerConfig{
		UDPHost: "127.0.0.1", IncludeLoopback: true, MaxSessions: n * o.People, MaxConnecting: 64, Logger: quiet,
		OfferRate: rate.Inf,
		Route: func(r *http.Request, live func(string) int) (string, error) {
			id, err := host.Pick(r.URL.Query().Get(client.MatchQuery), live)
			if errors.Is(err, server.ErrMatchFull) {
				err = fmt.Errorf("%w: %w", err, webrtc.ErrRouteFull)
			} else if errors.Is(err, server.ErrNoMatch) {
				err = fmt.Errorf("%w: %w", err, webrtc.ErrNoRoute)
			}
			return id, err
		},
	})
	if err != nil {
		return fail(err)
	}
	defer rtc.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(err)
	}
	mux := http.NewServeMux()
	mux.Handle(client.SignalPath, rtc)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()
	base := "http://" + ln.Addr().String()

	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Go(func() { host.Run(ctx, rtc.AcceptRoute) })
	for i, m := range host.Matches() {
		if m.Bots > 0 {
			if _, err := bots.Start(ctx, bots.Config{Count: m.Bots, TickRate: o.TickRate, Seed: uint64(i + 1)}, m.Server.Add); err != nil {
				return fail(err)
			}
		}
	}
	clients := make([]*client.Client, n*o.People)
	var dials sync.WaitGroup
	for k := range clients {
		dials.Go(func() {
			dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			c, err := client.Dial(dctx, base, client.Config{Match: strconv.Itoa(k%n + 1), Verify: true, Logger: o.Logger}, webrtc.DialConfig{Logger: o.Logger})
			if err != nil {
				o.Logger.Warn("capacity: dial", "err", err)
				return
			}
			clients[k] = c
		})
	}
	dials.Wait()
	for k, c := range clients {
		if c == nil {
			continue
		}
		t.Connected++
		defer c.Close()
		w := brain.NewWanderer(uint64(k + 1))
		wg.Go(func() { c.Run(ctx, o.TickRate, func(uint32) arena.Input { return w.Next() }) })
	}
	select {
	case <-ctx.Done():
		return fail(ctx.Err())
	case <-time.After(o.Warmup):
	}
	overruns := make([]uint64, n)
	for i, m := range host.Matches() {
		m.Server.ResetTickTimes()
		overruns[i] = m.Server.Stats().Overruns
	}
	var before uint64
	for _, c := range clients {
		if c != nil {
			before += c.Stats().Verified
		}
	}
	select {
	case <-ctx.Done():
		return fail(ctx.Err())
	case <-time.After(time.Duration(o.Seconds * float64(time.Second))):
	}
	var p99, p50 time.Duration
	for i, m := range host.Matches() {
		st := m.Server.Stats()
		p99, p50 = max(p99, st.TickP99), max(p50, st.TickP50)
		t.Overruns += st.Overruns - overruns[i]
	}
	for _, c := range clients {
		if c != nil {
			st := c.Stats()
			t.Mismatched += st.Mismatched
			t.Verified += st.Verified
		}
	}
	t.Verified -= before
	t.TickP99Ms, t.TickP50Ms = float64(p99.Microseconds())/1000, float64(p50.Microseconds())/1000
	t.HeapPerMatch = float64(int64(liveHeap())-int64(heap0)) / float64(n)
	t.Pass = t.Connected == len(clients) && p99 < limit && t.Overruns == 0 && t.Mismatched == 0 && t.Verified > 0
	return t
}

// formatTrial is a trial as -capacity prints it.
func formatTrial(t trial, people int) string {
	verdict := "holds"
	if !t.Pass {
		verdict = "FAILS"
	}
	s := fmt.Sprintf("%3d matches: %s  tick p50 %5.2f ms, p99 %5.2f ms (worst match), %d overruns, %d of %d people connected, %d verified ticks, %d mismatched, heap %.2f MB per match",
		t.Matches, verdict, t.TickP50Ms, t.TickP99Ms, t.Overruns, t.Connected, t.Matches*people, t.Verified, t.Mismatched, t.HeapPerMatch/(1<<20))
	if t.Err != "" {
		s += "; error: " + t.Err
	}
	return s
}

// sortedTrials returns the trials by number of matches.
func sortedTrials(ts []trial) []trial {
	ts = slices.Clone(ts)
	slices.SortFunc(ts, func(a, b trial) int { return a.Matches - b.Matches })
	return ts
}
