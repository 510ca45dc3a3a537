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
	// whose time it does not tell (default 1 s, the index's max-age).
	Poll time.Duration
}

// Viewer follows a live broadcast: it reads the index, starts at the
// newest keyframe, and takes each fragment of deltas as it is published,
// into its Playback.
type Viewer struct {
	cfg   ViewerConfig
	pb    *Playback
	index Index
	// indexAge is the age of the index as the cache it came from said.
	indexAge time.Duration
	stats    ViewerStats
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
		if next := time.Duration(v.index.NextMillis)*time.Millisecond - v.indexAge; next > 0 {
			if err := v.sleep(ctx, next+nextSlack); err != nil {
				return v.end(ctx, err)
			}
			err := v.take(ctx, KindDeltas, v.pb.Next(), fn)
			if err == nil || errors.Is(err, ErrNotFound) {
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
	v.indexAge = age
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
	return nil
}

func (v *Viewer) get(ctx context.Context, path string, limit int) ([]byte, time.Duration, error) {
	v.stats.Fetches++
	b, age, err := v.cfg.Fetch(ctx, v.cfg.URL+path, limit)
	v.stats.Bytes += uint64(len(b))
	return b, age, err
}

func errorsIsMismatch(err error) bool { return errors.Is(err, ErrMismatch) }
