package broadcast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Fetch gets the body at url, at most limit bytes (more is an error
// wrapping ErrTooLarge), and its age as a cache tells it (the Age header;
// 0 from the origin); a 404 is an error wrapping ErrNotFound. HTTPFetch is
// one; the browser passes its own.
type Fetch func(ctx context.Context, url string, limit int) (body []byte, age time.Duration, err error)

// ViewerConfig sets up a Viewer.
type ViewerConfig struct {
	// URL is the broadcast's base: URL+"index.json" is its index.
	URL string
	// Fetch gets each URL (default HTTPFetch).
	Fetch Fetch
	// Poll is how often the index is read while waiting for a fragment
	// whose time it does not tell (default 1 s, the index's max-age), and
	// the longest it waits to ask again for a fragment that was due but
	// not there.
	Poll time.Duration
	// Now is the viewer's clock (default time.Now): the index's age is
	// told by it (see Index.MadeUnixMillis), and each fragment's due time.
	Now func() time.Time
}

// Viewer follows a live broadcast: it reads the index, starts at the
// newest keyframe, and takes each fragment of deltas as it is published,
// into its Playback.
type Viewer struct {
	cfg   ViewerConfig
	pb    *Playback
	index Index
	// indexMade is when the index was made, by the viewer's clock: when
	// it was read less its age (Index.Age).
	indexMade time.Time
	// misses counts the times in a row the next fragment was asked for
	// when due and was not there yet.
	misses int
	stats  ViewerStats
}

// ViewerStats are a Viewer's counters.
type ViewerStats struct {
	// Fetches counts the requests, Bytes the bytes of their bodies.
	Fetches, Bytes uint64
	// Restarts counts the times the viewer fell behind what the origin
	// holds and started again from a keyframe.
	Restarts uint64
}

// NewViewer returns a Viewer that decodes with pb.
func NewViewer(cfg ViewerConfig, pb *Playback) *Viewer {
	if cfg.Fetch == nil {
		cfg.Fetch = defaultFetch()
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if !strings.HasSuffix(cfg.URL, "/") {
		cfg.URL += "/"
	}
	return &Viewer{cfg: cfg, pb: pb}
}

// Index returns the index the viewer read last.
func (v *Viewer) Index() Index { return v.index }

// Stats returns the viewer's counters; call it from Run's goroutine, or
// after Run returned.
func (v *Viewer) Stats() ViewerStats { return v.stats }

// Run follows the broadcast until ctx ends (returning nil), the broadcast
// ends (nil, once its last fragment is decoded) or an error that is not a
// chunk still to come: fn hears every frame as Playback.Add gives it. A
// tick whose hash differs is counted by the Playback and Run goes on.
func (v *Viewer) Run(ctx context.Context, fn func(f *Frame, world *snapshot.Snapshot)) error {
	for {
		if err := v.readIndex(ctx); err != nil {
			return v.end(ctx, err)
		}
		ix := v.index
		if !ix.Ready {
			if ix.Ended {
				return nil
			}
			if err := v.wait(ctx); err != nil {
				return v.end(ctx, err)
			}
			continue
		}
		if !v.pb.Started() || v.pb.Next() < ix.Oldest {
			if v.pb.Started() {
				v.stats.Restarts++
				v.pb.Reset()
			}
			if err := v.take(ctx, KindKeyframe, ix.Newest, fn); err != nil {
				return v.end(ctx, err)
			}
		}
		for v.pb.Next() <= v.index.Newest {
			if err := v.take(ctx, KindDeltas, v.pb.Next(), fn); err != nil {
				return v.end(ctx, err)
			}
		}
		if v.index.Ended {
			return nil
		}
		// The next fragment is due NextMillis after the index was made:
		// ask for it then, and read the index again only if it is not
		// there.
		if v.index.NextMillis > 0 {
			if err := v.sleep(ctx, v.untilNext()); err != nil {
				return v.end(ctx, err)
			}
			err := v.take(ctx, KindDeltas, v.pb.Next(), fn)
			if errors.Is(err, ErrNotFound) {
				v.misses++
				continue
			}
			if err == nil {
				continue
			}
			return v.end(ctx, err)
		}
		if err := v.wait(ctx); err != nil {
			return v.end(ctx, err)
		}
	}
}

// nextSlack is how long after a fragment is due a viewer asks for it.
const nextSlack = 20 * time.Millisecond

// retryAfter is how long a viewer waits to ask again for a fragment that
// was due but not there (the origin is late, or the viewer's clock runs
// ahead of the origin's); it doubles with each miss, up to Poll.
const retryAfter = 100 * time.Millisecond

// untilNext returns how long to wait before asking for deltas pb.Next():
// until nextSlack after it is due. The index tells when deltas Newest+1
// are due; a viewer that already holds them (the index came from a cache
// and was made before they were published) counts a fragment's time for
// each after. After a miss it waits at least retryAfter, doubled for each
// miss since, up to Poll.
func (v *Viewer) untilNext() time.Duration {
	ix := &v.index
	due := v.indexMade.Add(time.Duration(ix.NextMillis) * time.Millisecond)
	if ahead := int64(v.pb.Next()) - int64(ix.Newest) - 1; ahead > 0 && ix.TickRate > 0 {
		due = due.Add(time.Duration(float64(ahead) * float64(ix.FragmentTicks) / ix.TickRate * float64(time.Second)))
	}
	d := due.Sub(v.cfg.Now()) + nextSlack
	if v.misses > 0 {
		d = max(d, min(v.cfg.Poll, retryAfter<<min(v.misses-1, 8)))
	}
	return max(d, 0)
}

func (v *Viewer) sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// end returns nil for an error that is ctx's end.
func (v *Viewer) end(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

func (v *Viewer) wait(ctx context.Context) error { return v.sleep(ctx, v.cfg.Poll) }

func (v *Viewer) readIndex(ctx context.Context) error {
	b, age, err := v.get(ctx, "index.json", MaxIndex)
	read := v.cfg.Now()
	if err != nil {
		return fmt.Errorf("broadcast index: %w", err)
	}
	var ix Index
	if err := json.Unmarshal(b, &ix); err != nil {
		return fmt.Errorf("%w: index: %w", ErrMalformed, err)
	}
	if ix.Format != Version {
		return fmt.Errorf("%w: index of chunk format %d, want %d", ErrMalformed, ix.Format, Version)
	}
	v.index = ix
	v.indexMade = read.Add(-ix.Age(read, age))
	return nil
}

// take fetches and decodes one chunk.
func (v *Viewer) take(ctx context.Context, k Kind, n uint32, fn func(*Frame, *snapshot.Snapshot)) error {
	b, _, err := v.get(ctx, ChunkPath(k, n), MaxChunk)
	if err != nil {
		return fmt.Errorf("broadcast %s %d: %w", k, n, err)
	}
	if err := v.pb.Add(b, fn); err != nil && !errorsIsMismatch(err) {
		return err
	}
	if k == KindDeltas {
		v.misses = 0
	}
	return nil
}

func (v *Viewer) get(ctx context.Context, path string, limit int) ([]byte, time.Duration, error) {
	v.stats.Fetches++
	b, age, err := v.cfg.Fetch(ctx, v.cfg.URL+path, limit)
	v.stats.Bytes += uint64(len(b))
	return b, age, err
}

func errorsIsMismatch(err error) bool { return errors.Is(err, ErrMismatch) }
