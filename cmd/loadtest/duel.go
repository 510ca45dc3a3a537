package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/duel"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/transport/conditioner"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// duelResult is what -duel prints with -json: the duel's figures and the
// link they were measured over.
type duelResult struct {
	URL       string  `json:"url"`
	LatencyMs float64 `json:"latency_ms"` // one way, each client's conditioner
	JitterMs  float64 `json:"jitter_ms"`
	duel.Result
}

// duelFrame is how often a duel's clients take in what arrived, as a game
// does at 60 frames a second; inputs go out once a tick.
const duelFrame = time.Second / 60

// linkPump is how often the clients' conditioners let due messages go.
const linkPump = time.Millisecond

// runDuel connects an aimer and a strafer to the server at o.URL, each
// through its own conditioner, and duels for o.Seconds of counted play.
func runDuel(ctx context.Context, o options, cfg duel.Config) (duelResult, error) {
	seed := cfg.Seed
	out := duelResult{URL: o.URL, LatencyMs: ms(o.Link.Latency), JitterMs: ms(o.Link.Jitter)}
	start := time.Now()
	var cls [2]*client.Client
	var conds []*conditioner.Conn
	for i, name := range []string{"aimer", "strafer"} {
		dialCtx, cancel := context.WithTimeout(ctx, o.ConnectTimeout)
		conn, err := webrtc.Dial(dialCtx, client.SignalURL(o.URL, ""), webrtc.DialConfig{Version: protocol.Version, Logger: o.Logger})
		cancel()
		if err != nil {
			return out, fmt.Errorf("connect the %s to %s: %w", name, o.URL, err)
		}
		if !o.Link.IsZero() {
			cond := conditioner.New(conn, func() time.Duration { return time.Since(start) }, seed+uint64(i))
			cond.Set(o.Link)
			conds = append(conds, cond)
			conn = cond
		}
		cls[i] = client.New(conn, client.Config{Verify: true, Logger: o.Logger, Name: name, InputCopies: o.InputCopies})
		defer cls[i].Close()
	}
	cfg.Seconds = o.Seconds
	cfg.OneWay = o.Link.Latency + o.Link.Jitter/2
	cfg.Rewind = func() (arena.RewindStats, bool) { return serverRewind(ctx, o.metrics()) }
	d := duel.New(cfg, cls[0], cls[1])
	// The link lets what the clients send go on time, not at their next
	// frame: a conditioner pumped once a frame would add half a frame to
	// the way up.
	pumpCtx, stopPump := context.WithCancel(ctx)
	defer stopPump()
	if len(conds) > 0 {
		go func() {
			t := time.NewTicker(linkPump)
			defer t.Stop()
			for {
				select {
				case <-pumpCtx.Done():
					return
				case <-t.C:
				}
				for _, c := range conds {
					c.Pump()
				}
			}
		}()
	}
	err := d.Run(ctx, duelFrame, nil)
	out.Result = d.Result()
	return out, err
}

// serverRewind reads the server's rewind counters from its expvar page
// (GET /debug/vars, "match").
func serverRewind(ctx context.Context, base string) (arena.RewindStats, bool) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/debug/vars", nil)
	if err != nil {
		return arena.RewindStats{}, false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return arena.RewindStats{}, false
	}
	defer resp.Body.Close()
	var vars struct {
		Match *server.Stats `json:"match"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&vars) != nil || vars.Match == nil {
		return arena.RewindStats{}, false
	}
	return vars.Match.Rewind, true
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// formatDuel is -duel's plain output.
func formatDuel(r duelResult) string {
	rewind := "server rewind counters unavailable"
	if r.RewindKnown {
		rewind = fmt.Sprintf("%d shots rewound, mean %.0f ms, %d clamped, %d bounded; %d behind-cover hits", r.RewoundShots, r.MeanRewindMs, r.RewindClamped, r.RewindBounded, r.BehindCoverHits)
	}
	return fmt.Sprintf("duel at %.0f ms one way (+%.0f ms jitter): %d shots, %d hits, hit rate %.3f, %d kills; agreement %.3f (%d own hits the server missed, %d own misses it hit); corrections %.2f a minute, jumps %.2f a minute, input delay p50 %.0f ms; view lag mean %.0f ms, p95 %.0f ms; handover mean %.3f px, max %.3f px, %d rejected predicted shots; %s; %d mismatched ticks of %d; %.1f s counted in %.1f s",
		r.LatencyMs, r.JitterMs, r.Shots, r.Hits, r.HitRate, r.Kills, r.Agreement, r.OwnHitServerMiss, r.OwnMissServerHit, r.CorrectionsPerMin, r.RemoteJumpsPerMin, r.InputDelayMsP50, r.ViewLagMsMean, r.ViewLagMsP95, r.HandoverMeanPx, r.HandoverMaxPx, r.Rejected, rewind,
		r.MismatchedTicks, r.VerifiedTicks, r.CountedSeconds, r.Seconds)
}
