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
// into its Playback; where the broadcast publishes parts, it takes the
// fragment being written part by part, each as soon as it is published,
// and so follows the match by the delay and a part rather than the delay
// and a fragment.
type Viewer struct {
	cfg   ViewerConfig
	pb    *Playback
	index Index
	// indexMade is when the index was made, by the viewer's clock: when
	// it was read less its age (Index.Age).
	indexMade time.Time
	// misses counts the times in a row the next fragment (or part) was
	// asked for when due and was not there yet.
	misses int
	// part is the next part to take of fragment partOf: 0 until a part of
	// it is taken.
	part   int
	partOf uint32
	// answered counts the requests answered 200, answeredAtFailure what
	// it was when a request last failed on the way.
	answered, answeredAtFailure uint64
	stats                       ViewerStats
}

// ViewerStats are a Viewer's counters.
type ViewerStats struct {
	// Fetches counts the requests, Bytes the bytes of their bodies.
	Fetches, Bytes uint64
	// Restarts counts the times the viewer fell behind what the origin
	// holds and started again from a keyframe; Retries the requests that
	// failed on the way and were tried again (see Run).
	Restarts, Retries uint64
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
// tick whose hash differs is counted by the Playback and Run goes on. A
// request that fails on the way (the network, or an answer other than 200
// and 404: a cache's 502 while the origin is busy) is tried again, the
// index first, after retryAfter, doubled with each failure up to Poll, up
// to maxRetries times in a row (counted in ViewerStats.Retries).
func (v *Viewer) Run(ctx context.Context, fn func(f *Frame, world *snapshot.Snapshot)) error {
	failures := 0
	for {
		err := v.run(ctx, fn)
		if err == nil || !errors.Is(err, errUnavailable) || failures >= maxRetries {
			return err
		}
		v.stats.Retries++
		if err := v.sleep(ctx, min(v.cfg.Poll, retryAfter<<failures)); err != nil {
			return v.end(ctx, err)
		}
		if v.answered != v.answeredAtFailure {
			failures = 0 // a request went through since the last failure
		}
		failures++
		v.answeredAtFailure = v.answered
	}
}

// maxRetries bounds the failed requests in a row a Viewer tries again.
const maxRetries = 8

// errUnavailable marks a request that failed on the way (see Run).
var errUnavailable = errors.New("unavailable")

// run is Run until its first error.
func (v *Viewer) run(ctx context.Context, fn func(f *Frame, world *snapshot.Snapshot)) error {
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
			v.part = 0
			if err := v.take(ctx, ChunkPath(KindKeyframe, ix.Newest), fn); err != nil {
				return v.end(ctx, err)
			}
		}
		for v.pb.Next() <= v.index.Newest {
			if err := v.takeFragment(ctx, fn); err != nil {
				return v.end(ctx, err)
			}
		}
		for v.index.PartTicks > 0 && v.pb.Next() == v.index.Newest+1 && v.nextPart() < v.index.Parts {
			if err := v.takePart(ctx, fn); err != nil {
				return v.end(ctx, err)
			}
		}
		if v.index.Ended {
			return nil
		}
		// The next part (or fragment) is due NextPartMillis (NextMillis)
		// after the index was made: ask for it then, and read the index
		// again only if it is not there.
		if wait, ok := v.untilNext(); ok {
			if err := v.sleep(ctx, wait); err != nil {
				return v.end(ctx, err)
			}
			var err error
			if v.index.PartTicks > 0 {
				err = v.takePart(ctx, fn)
			} else {
				err = v.takeFragment(ctx, fn)
			}
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

// untilNext returns how long to wait before asking for what comes next,
// the next part of fragment pb.Next() or, without parts, deltas
// pb.Next(): until nextSlack after it is due; ok false when the index does
// not tell. The index tells when deltas Newest+1 (the next part of
// fragment Newest+1) are due; a viewer that already holds them (the index
// came from a cache and was made before they were published) counts a
// fragment's (part's) time for each after. After a miss it waits at least
// retryAfter, doubled for each miss since, up to Poll.
func (v *Viewer) untilNext() (time.Duration, bool) {
	ix := &v.index
	next, ticks := ix.NextMillis, ix.FragmentTicks
	ahead := int64(v.pb.Next()) - int64(ix.Newest) - 1
	if ix.PartTicks > 0 {
		next, ticks = ix.NextPartMillis, ix.PartTicks
		ahead = ahead*int64(ix.PartsPerFragment()) + int64(v.nextPart()) - int64(ix.Parts)
	}
	if next <= 0 {
		return 0, false
	}
	due := v.indexMade.Add(time.Duration(next) * time.Millisecond)
	if ahead > 0 && ix.TickRate > 0 {
		due = due.Add(time.Duration(float64(ahead) * float64(ticks) / ix.TickRate * float64(time.Second)))
	}
	d := due.Sub(v.cfg.Now()) + nextSlack
	if v.misses > 0 {
		d = max(d, min(v.cfg.Poll, retryAfter<<min(v.misses-1, 8)))
	}
	return max(d, 0), true
}

// nextPart returns the next part to take of fragment pb.Next(): 0 unless
// parts of it were taken.
func (v *Viewer) nextPart() int {
	if v.partOf != v.pb.Next() {
		return 0
	}
	return v.part
}

// takeFragment takes fragment pb.Next(): its next part where parts of it
// were taken (the parts are held as long as the whole), else, or if there
// is no such part (a match that ended on a part's last tick wrote no
// last part), the whole, of which the Playback passes over what the parts
// held.
func (v *Viewer) takeFragment(ctx context.Context, fn func(*Frame, *snapshot.Snapshot)) error {
	if v.nextPart() > 0 {
		if err := v.takePart(ctx, fn); !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	return v.take(ctx, ChunkPath(KindDeltas, v.pb.Next()), fn)
}

// takePart takes the next part of fragment pb.Next().
func (v *Viewer) takePart(ctx context.Context, fn func(*Frame, *snapshot.Snapshot)) error {
	n, p := v.pb.Next(), v.nextPart()
	if err := v.take(ctx, PartPath(n, p), fn); err != nil {
		return err
	}
	v.partOf, v.part = n, p+1
	return nil
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

// take fetches and decodes the chunk at path.
func (v *Viewer) take(ctx context.Context, path string, fn func(*Frame, *snapshot.Snapshot)) error {
	b, _, err := v.get(ctx, path, MaxChunk)
	if err != nil {
		return fmt.Errorf("broadcast %s: %w", path, err)
	}
	if err := v.pb.Add(b, fn); err != nil && !errorsIsMismatch(err) {
		return err
	}
	v.misses = 0
	return nil
}

func (v *Viewer) get(ctx context.Context, path string, limit int) ([]byte, time.Duration, error) {
	v.stats.Fetches++
	b, age, err := v.cfg.Fetch(ctx, v.cfg.URL+path, limit)
	v.stats.Bytes += uint64(len(b))
	if err == nil {
		v.answered++
	}
	if err != nil && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrMalformed) && ctx.Err() == nil {
		err = fmt.Errorf("%w: %w", errUnavailable, err)
	}
	return b, age, err
}

func errorsIsMismatch(err error) bool { return errors.Is(err, ErrMismatch) }
