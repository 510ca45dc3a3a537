package broadcast_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// ask is a request a viewer made: its path, and when, since it started.
type ask struct {
	path string
	at   time.Duration
}

// watch runs a Viewer with cfg, in a synctest bubble, against a fake
// fetch: serve answers each path, given how long after the start it is
// asked for. It returns every request, once stop has been served.
func watch(t *testing.T, cfg broadcast.ViewerConfig, serve func(path string, at time.Duration) ([]byte, time.Duration, error), stop string) []ask {
	t.Helper()
	start := time.Now()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var asks []ask
	cfg.URL = "http://origin/broadcast/1/"
	cfg.Fetch = func(ctx context.Context, url string, limit int) ([]byte, time.Duration, error) {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		path := strings.TrimPrefix(url, cfg.URL)
		at := time.Since(start)
		asks = append(asks, ask{path, at})
		b, age, err := serve(path, at)
		if path == stop && err == nil {
			cancel()
		}
		return b, age, err
	}
	pb := broadcast.NewPlayback(delta.MustCodec(schema), schema)
	if err := broadcast.NewViewer(cfg, pb).Run(ctx, func(*broadcast.Frame, *snapshot.Snapshot) {}); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return asks
}

// liveChunks returns a match's chunks by path, in fragments of 30 ticks
// (a second at 30 Hz).
func liveChunks(t *testing.T) map[string][]byte {
	var c chunks
	record(t, 130, 30, &c)
	byPath := map[string][]byte{}
	for i, h := range c.headers {
		byPath[broadcast.ChunkPath(h.Kind, h.Number)] = c.bytes[i]
	}
	return byPath
}

// deltasAsked returns the times the deltas were asked for, in
// milliseconds, each with its path.
func deltasAsked(asks []ask) []string {
	var out []string
	for _, a := range asks {
		if strings.HasSuffix(a.path, "/delta") {
			out = append(out, a.path+"@"+a.at.Round(time.Millisecond).String())
		}
	}
	return out
}

// A viewer asks for the next fragment when it is due by the index's own
// made time, not only by the cache's Age: an index a cache kept for 900
// ms without saying so brings the request 900 ms sooner. A made time that
// the viewer's clock puts in the future, or too far in the past, says the
// clocks differ: it goes by Age alone.
func TestViewerAsksForTheNextFragmentWhenDue(t *testing.T) {
	chunks := liveChunks(t)
	for _, tc := range []struct {
		name string
		// made is when the index was made, before the viewer started.
		made time.Duration
		// noMade leaves made_unix_ms out of the index.
		noMade bool
		// age is the cache's Age.
		age time.Duration
		// skew is how far the viewer's clock is ahead of the origin's.
		skew time.Duration
		// want is when deltas 1 are asked for.
		want time.Duration
	}{
		{name: "fresh from the origin", want: 2020 * time.Millisecond},
		{name: "made 900 ms ago, no Age", made: 900 * time.Millisecond, want: 1120 * time.Millisecond},
		{name: "made 900 ms ago, Age 1 s", made: 900 * time.Millisecond, age: time.Second, want: 1020 * time.Millisecond},
		{name: "made 400 ms ago, Age 1 s", made: 400 * time.Millisecond, age: time.Second, want: 1020 * time.Millisecond},
		{name: "no made time, Age 1 s", noMade: true, age: time.Second, want: 1020 * time.Millisecond},
		{name: "viewer's clock an hour behind", made: 900 * time.Millisecond, skew: -time.Hour, want: 2020 * time.Millisecond},
		{name: "viewer's clock a minute ahead", made: 900 * time.Millisecond, skew: time.Minute, want: 2020 * time.Millisecond},
		{name: "viewer's clock a minute ahead, Age 1 s", made: 900 * time.Millisecond, skew: time.Minute, age: time.Second, want: 1020 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ix := broadcast.Index{Format: broadcast.Version, TickRate: 30, FragmentTicks: 30,
					Ready: true, Newest: 0, NewestTick: 31, NextMillis: 2000}
				if !tc.noMade {
					ix.MadeUnixMillis = time.Now().Add(-tc.made).UnixMilli()
				}
				// The index made tc.made ago says deltas 1 are due 2 s
				// after it was made, and is still served as it was.
				body, err := json.Marshal(ix)
				if err != nil {
					t.Fatal(err)
				}
				serve := func(path string, at time.Duration) ([]byte, time.Duration, error) {
					if path == "index.json" {
						return body, tc.age, nil
					}
					return chunks[path], 0, nil
				}
				cfg := broadcast.ViewerConfig{Now: func() time.Time { return time.Now().Add(tc.skew) }}
				got := deltasAsked(watch(t, cfg, serve, "1/delta"))
				want := []string{"0/delta@0s", "1/delta@" + tc.want.String()}
				if !slices.Equal(got, want) {
					t.Errorf("deltas asked for %q, want %q", got, want)
				}
			})
		})
	}
}

// A viewer that already holds the fragment a cached index says is next
// asks for the one after a fragment's time later; a fragment asked for
// when due and not there yet is asked for again after 100 ms, 200, 400
// ..., not in a loop.
func TestViewerAsksAgainLaterForALateFragment(t *testing.T) {
	chunks := liveChunks(t)
	synctest.Test(t, func(t *testing.T) {
		body := firstFragmentIndex(t)
		serve := func(path string, at time.Duration) ([]byte, time.Duration, error) {
			switch {
			case path == "index.json":
				return body, 0, nil // the cache keeps serving the first index
			case path == "2/delta" && at < 2500*time.Millisecond:
				return nil, 0, broadcast.ErrNotFound // the origin is late with it
			}
			return chunks[path], 0, nil
		}
		got := deltasAsked(watch(t, broadcast.ViewerConfig{}, serve, "2/delta"))
		want := []string{"0/delta@0s", "1/delta@1.02s", "2/delta@2.02s", "2/delta@2.12s", "2/delta@2.32s", "2/delta@2.72s"}
		if !slices.Equal(got, want) {
			t.Errorf("deltas asked for %q, want %q", got, want)
		}
	})
}

func TestIndexAge(t *testing.T) {
	now := time.UnixMilli(1_800_000_000_000)
	for _, tc := range []struct {
		made     int64
		cacheAge time.Duration
		want     time.Duration
	}{
		{made: 0, cacheAge: time.Second, want: time.Second},
		{made: now.UnixMilli() - 900, want: 900 * time.Millisecond},
		{made: now.UnixMilli() - 900, cacheAge: 2 * time.Second, want: 2 * time.Second},
		{made: now.UnixMilli(), want: 0},
		{made: now.UnixMilli() + 1, cacheAge: time.Second, want: time.Second},
		{made: now.Add(-broadcast.MaxMadeAge).UnixMilli(), want: broadcast.MaxMadeAge},
		{made: now.Add(-broadcast.MaxMadeAge).UnixMilli() - 1, want: 0},
		{made: -5, cacheAge: time.Second, want: time.Second},
		{made: 1<<63 - 1, want: 0},
	} {
		if got := (broadcast.Index{MadeUnixMillis: tc.made}).Age(now, tc.cacheAge); got != tc.want {
			t.Errorf("made %d, Age %v: %v, want %v", tc.made, tc.cacheAge, got, tc.want)
		}
	}
}

// firstFragmentIndex is an index made now that names fragment 0 (ticks
// 2-31) the newest and the next due in a second.
func firstFragmentIndex(t *testing.T) []byte {
	ix := broadcast.Index{Format: broadcast.Version, TickRate: 30, FragmentTicks: 30,
		Ready: true, Newest: 0, NewestTick: 31, NextMillis: 1000, MadeUnixMillis: time.Now().UnixMilli()}
	body, err := json.Marshal(ix)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// A request that fails on the way (a cache's 502) is tried again after
// 100 ms, 200, 400 ..., the index first; the viewer goes on once the
// requests go through, and gives up after eight failures in a row.
func TestViewerTriesAgainAfterAFailure(t *testing.T) {
	chunks := liveChunks(t)
	badGateway := errors.New("GET: 502 Bad Gateway")
	synctest.Test(t, func(t *testing.T) {
		body := firstFragmentIndex(t)
		serve := func(path string, at time.Duration) ([]byte, time.Duration, error) {
			switch {
			case path == "1/delta" && at < 1300*time.Millisecond:
				return nil, 0, badGateway
			case path == "index.json":
				return body, 0, nil
			}
			return chunks[path], 0, nil
		}
		var asked []string
		for _, a := range watch(t, broadcast.ViewerConfig{}, serve, "2/delta") {
			asked = append(asked, a.path+"@"+a.at.Round(time.Millisecond).String())
		}
		want := []string{"index.json@0s", "0/key@0s", "0/delta@0s", "1/delta@1.02s", // 502
			"index.json@1.12s", "1/delta@1.12s", // 502 again
			"index.json@1.32s", "1/delta@1.32s", "index.json@1.32s", "2/delta@2.02s"}
		if !slices.Equal(asked, want) {
			t.Errorf("asked %q, want %q", asked, want)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		pb := broadcast.NewPlayback(delta.MustCodec(schema), schema)
		v := broadcast.NewViewer(broadcast.ViewerConfig{URL: "http://origin/b/", Fetch: func(context.Context, string, int) ([]byte, time.Duration, error) {
			return nil, 0, badGateway
		}}, pb)
		if err := v.Run(t.Context(), nil); !errors.Is(err, badGateway) || v.Stats().Retries != 8 || v.Stats().Fetches != 9 {
			t.Errorf("a broadcast that never answers: %v after %d retries, %d requests", err, v.Stats().Retries, v.Stats().Fetches)
		}
	})
}
