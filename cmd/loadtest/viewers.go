package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/broadcast/origin"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// viewersOptions are -broadcast's: N viewers of a broadcast, each decoding
// and verifying every tick it is given.
type viewersOptions struct {
	// URL is the broadcast's base (…/broadcast/ID/), through a cache or not.
	URL string
	// Viewers is how many watch at once.
	Viewers int
	// Seconds is how long they watch once every viewer has started (has
	// decoded its keyframe), or once StartWithin has passed.
	Seconds float64
	// StartWithin is the most the viewers are given to start, all at once
	// on one machine (default 60 s): on a busy machine starting takes
	// longer, which is not what the run measures.
	StartWithin time.Duration
	// MetricsURL is the origin server's counters (GET /debug/vars): the
	// live tick, and what the origin served.
	MetricsURL string
	// Match is the match's id on the origin ("broadcast" counters).
	Match string
}

// viewersResult is what -broadcast measured.
type viewersResult struct {
	URL     string  `json:"url"`
	Viewers int     `json:"viewers"`
	Seconds float64 `json:"seconds"`
	// Started counts the viewers that decoded a keyframe; Failed those that
	// stopped on an error (FirstError names one).
	Started    int    `json:"started"`
	Failed     int    `json:"failed"`
	FirstError string `json:"first_error,omitempty"`
	// Ticks and Mismatched are over every viewer: each tick decoded and
	// checked against the broadcast's hash.
	Ticks      uint64 `json:"ticks"`
	Mismatched uint64 `json:"mismatched"`
	// Parts counts the fragments' parts the viewers took (each as soon as
	// it was published); the rest came in whole fragments.
	Parts uint64 `json:"parts"`
	// Restarts counts viewers falling behind what the origin held;
	// Retries the requests that failed on the way (a cache's 502) and were
	// tried again (broadcast.ViewerStats).
	Restarts uint64 `json:"restarts"`
	Retries  uint64 `json:"retries"`
	// ViewerBytes is what all the viewers fetched, ViewerBytesPerSec a second.
	ViewerBytes       uint64  `json:"viewer_bytes"`
	ViewerBytesPerSec float64 `json:"viewer_bytes_per_sec"`
	// DelaySeconds, FragmentSeconds and PartSeconds (0: no parts) are the
	// broadcast's, from its index.
	DelaySeconds    float64 `json:"delay_s"`
	FragmentSeconds float64 `json:"fragment_s"`
	PartSeconds     float64 `json:"part_s"`
	// LagMaxSeconds is the most any viewer's newest decoded tick was
	// behind the live match (with LagKnown: the origin's counters were
	// read): every lagSample, the match's tick from the origin's
	// /debug/vars, then each viewer's newest tick, their difference at the
	// index's tick rate. A viewer counts once it has decoded a whole
	// fragment after its keyframe (its start is not lag). It takes each
	// part (or, without parts, each fragment) whole, so its lag is a saw:
	// the delay (and the fetch) just after a part, the delay and a part
	// just before the next one; the most is that, plus how late the viewer
	// asked for the next part (the slack it leaves, or a stale index), the
	// time the cache and the origin took to answer, and the load tester's
	// own decoding of every viewer's part at once on a shared machine. The
	// peak may fall between two samples: the figure is at most lagSample
	// under it.
	LagKnown      bool    `json:"lag_known"`
	LagMaxSeconds float64 `json:"lag_max_s"`
	// ReachMaxSeconds is the cache's and the viewers' share of that: the
	// longest any fragment (or part) published while all watched took to reach the
	// last viewer, from the sample in which the origin's counters first
	// named it published (PublishedTick) to the one in which every
	// started viewer's newest tick was at least its last, over
	// ReachFragments fragments (each figure within lagSample).
	ReachFragments  int     `json:"reach_fragments"`
	ReachMaxSeconds float64 `json:"reach_max_s"`
	// The origin's counters over the run (with OriginKnown).
	OriginKnown         bool    `json:"origin_known"`
	OriginBytes         uint64  `json:"origin_bytes"`
	OriginBytesPerSec   float64 `json:"origin_bytes_per_sec"`
	OriginChunksServed  uint64  `json:"origin_chunks_served"`
	OriginIndexServed   uint64  `json:"origin_index_served"`
	OriginMaxServedEach uint64  `json:"origin_max_served_per_chunk"`
}

// watchBroadcast starts o.Viewers viewers of the broadcast and runs them
// for o.Seconds once all have started.
func watchBroadcast(ctx context.Context, o viewersOptions) viewersResult {
	r := viewersResult{URL: o.URL, Viewers: o.Viewers, Seconds: o.Seconds}
	if o.StartWithin <= 0 {
		o.StartWithin = time.Minute
	}
	before, okBefore := originVars(ctx, o)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// started counts the viewers that decoded their keyframe; the last
	// one's start (or StartWithin) begins the run's Seconds.
	var started atomic.Int64
	allStarted := make(chan struct{})
	var measuring atomic.Bool // all have started: the Seconds run
	go func() {
		select {
		case <-allStarted:
		case <-time.After(o.StartWithin):
		case <-ctx.Done():
			return
		}
		measuring.Store(true)
		select {
		case <-time.After(time.Duration(o.Seconds * float64(time.Second))):
			cancel()
		case <-ctx.Done():
		}
	}()
	// Each viewer's newest decoded tick, counted once it has decoded a
	// whole fragment: until then it holds the keyframe it started from,
	// older than what it is about to decode.
	newest := make([]atomic.Uint32, o.Viewers)
	// tickRate is the broadcast's, as the first viewer's index tells it
	// (math.Float64bits).
	var tickRate atomic.Uint64
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for i := range o.Viewers {
		wg.Go(func() {
			pb := broadcast.NewPlayback(protocol.Session().Format(protocol.Schema()), protocol.Schema())
			v := broadcast.NewViewer(broadcast.ViewerConfig{URL: o.URL}, pb)
			first := true
			err := v.Run(ctx, func(f *broadcast.Frame, _ *snapshot.Snapshot) {
				if first {
					first = false
					if started.Add(1) == int64(o.Viewers) {
						close(allStarted)
					}
				}
				if tickRate.Load() == 0 && v.Index().TickRate > 0 {
					tickRate.Store(math.Float64bits(v.Index().TickRate))
				}
				if pb.Stats().Fragments > 1 || pb.Stats().Fragments == 1 && f.Tick == pb.Tick() && v.Index().NewestTick <= f.Tick {
					newest[i].Store(f.Tick)
				}
			})
			st, vs, ix := pb.Stats(), v.Stats(), v.Index()
			mu.Lock()
			defer mu.Unlock()
			if st.Keyframes > 0 {
				r.Started++
			}
			if err != nil {
				r.Failed++
				if r.FirstError == "" {
					r.FirstError = err.Error()
				}
			}
			r.Ticks += st.Ticks
			r.Mismatched += st.Mismatched
			r.Parts += st.Parts
			r.Restarts += vs.Restarts
			r.Retries += vs.Retries
			r.ViewerBytes += vs.Bytes
			r.DelaySeconds = float64(ix.DelayMillis) / 1000
			if ix.TickRate > 0 {
				r.FragmentSeconds = float64(ix.FragmentTicks) / ix.TickRate
				r.PartSeconds = float64(ix.PartTicks) / ix.TickRate
			}
		})
	}
	// Sample the lag: the live tick from the origin, then each viewer's
	// newest; and each fragment's reach: when the origin first names it
	// published, and when every viewer has it.
	t := time.NewTicker(lagSample)
	publishedAt := map[uint32]time.Time{} // a fragment's last tick: when first seen published
	var lastPublished uint32
	seenPublished := false
sample:
	for {
		select {
		case <-ctx.Done():
			break sample
		case <-t.C:
		}
		vars, ok := originVars(ctx, o)
		now := time.Now()
		rate := math.Float64frombits(tickRate.Load())
		if !ok || vars.Match == nil || rate <= 0 {
			continue
		}
		oldest := uint32(math.MaxUint32) // the newest tick of the viewer furthest behind
		for i := range newest {
			n := newest[i].Load()
			if n > 0 && vars.Match.Tick > n {
				r.LagKnown = true
				r.LagMaxSeconds = max(r.LagMaxSeconds, float64(vars.Match.Tick-n)/rate)
			}
			if n > 0 {
				oldest = min(oldest, n)
			}
		}
		if !measuring.Load() {
			continue
		}
		// The first fragment seen was published before this sample, by
		// how much is not known: it is not counted.
		if pub := vars.Broadcast[o.Match].PublishedTick; !seenPublished {
			lastPublished, seenPublished = pub, true
		} else if pub > lastPublished {
			publishedAt[pub], lastPublished = now, pub
		}
		for last, at := range publishedAt {
			if oldest != math.MaxUint32 && oldest >= last {
				r.ReachFragments++
				r.ReachMaxSeconds = max(r.ReachMaxSeconds, now.Sub(at).Seconds())
				delete(publishedAt, last)
			}
		}
	}
	t.Stop()
	wg.Wait()
	took := time.Since(start).Seconds()
	r.ViewerBytesPerSec = float64(r.ViewerBytes) / took
	if after, ok := originVars(context.Background(), o); ok && okBefore {
		b, a := before.Broadcast[o.Match], after.Broadcast[o.Match]
		r.OriginKnown = true
		r.OriginBytes = a.BytesServed - b.BytesServed
		r.OriginBytesPerSec = float64(r.OriginBytes) / took
		r.OriginChunksServed = a.ChunksServed - b.ChunksServed
		r.OriginIndexServed = a.IndexServed - b.IndexServed
		r.OriginMaxServedEach = a.MaxServedPerChunk
	}
	return r
}

// lagSample is how often -broadcast reads the live tick and each viewer's
// newest: a request to the origin's counters, ten a second.
const lagSample = 100 * time.Millisecond

// originCounters is what -broadcast reads of the origin's /debug/vars.
type originCounters struct {
	Match     *server.Stats           `json:"match"`
	Broadcast map[string]origin.Stats `json:"broadcast"`
}

func originVars(ctx context.Context, o viewersOptions) (originCounters, bool) {
	var vars originCounters
	if o.MetricsURL == "" {
		return vars, false
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(o.MetricsURL, "/")+"/debug/vars", nil)
	if err != nil {
		return vars, false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return vars, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&vars) != nil {
		return vars, false
	}
	return vars, true
}

// formatViewers is -broadcast's plain output.
func formatViewers(r viewersResult) string {
	s := fmt.Sprintf("broadcast: %d of %d viewers started, %d failed; decoded %d ticks (%d parts taken), %d mismatched, %d restarts, %d requests tried again; viewers fetched %.0f B/s in all",
		r.Started, r.Viewers, r.Failed, r.Ticks, r.Parts, r.Mismatched, r.Restarts, r.Retries, r.ViewerBytesPerSec)
	if r.OriginKnown {
		s += fmt.Sprintf("; the origin sent %.0f B/s (%d chunks, each at most %d times; %d index reads)", r.OriginBytesPerSec, r.OriginChunksServed, r.OriginMaxServedEach, r.OriginIndexServed)
	}
	if r.LagKnown {
		s += fmt.Sprintf("; the furthest behind the live match %.1f s (delay %.0f s, fragments of %.0f s", r.LagMaxSeconds, r.DelaySeconds, r.FragmentSeconds)
		if r.PartSeconds > 0 {
			s += fmt.Sprintf(" in parts of %.1f s", r.PartSeconds)
		}
		s += ")"
	}
	if r.ReachFragments > 0 {
		s += fmt.Sprintf("; each of %d fragments reached every viewer within %.1f s of its publication", r.ReachFragments, r.ReachMaxSeconds)
	}
	if r.FirstError != "" {
		s += "; first error: " + r.FirstError
	}
	return s
}
