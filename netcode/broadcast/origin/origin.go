// Package origin serves a broadcast over HTTP so that any HTTP cache can
// fan it out (see package broadcast).
package origin

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sightline-game/sightline/netcode/broadcast"
)

// Config sets up a Server. Zero fields take the defaults noted.
type Config struct {
	// Delay holds each chunk back for this long after it was written, so
	// that watching the broadcast does not help a player (0: none, for a
	// LAN).
	Delay time.Duration
	// Keep is how many fragments (a keyframe and its deltas each) are
	// held once published; older ones are forgotten (default 40: two
	// minutes of 3 s fragments).
	Keep int
	// Protocol, TickRate, FragmentTicks and PartTicks are told in the
	// index (PartTicks default broadcast.DefaultPartTicks, as the Writer's;
	// negative: the Writer writes no parts).
	Protocol      uint32
	TickRate      float64
	FragmentTicks int
	PartTicks     int
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Server is a broadcast.Sink that serves the chunks it is handed over HTTP, each
// once its delay has passed, with cache headers that let any HTTP cache
// fan them out:
//
//	GET index.json   the Index, made when asked; Cache-Control: public, max-age=1
//	GET N/key        keyframe N; public, max-age=31536000, immutable
//	GET N/delta      deltas N; the same
//	GET N/part/P     part P of deltas N; the same
//
// A chunk written and due to be published within HoldFor is answered once
// it is (the request waits), so that a viewer that asks a moment early,
// and the cache's one request that the others wait behind, get it rather
// than a 404 each. A chunk not published yet otherwise, or forgotten, is
// 404 with Cache-Control: no-store. Mount it under a prefix with
// http.StripPrefix.
type Server struct {
	cfg Config

	mu      sync.Mutex
	pending []held // written, not yet published (in order)
	held    []held // published, oldest first
	ended   bool
	// lastDeltas and lastPart are when the last fragment of deltas and
	// the last part were written.
	lastDeltas, lastPart time.Time
	stats                Stats
}

type held struct {
	h       broadcast.Header
	b       []byte
	written time.Time
	served  uint64
}

// Stats are a Server's counters.
type Stats struct {
	// IndexServed counts the index responses; ChunksServed the chunks'.
	IndexServed, ChunksServed uint64
	// BytesServed counts the bytes of every response body.
	BytesServed uint64
	// MaxServedPerChunk is the most times any one chunk was served: with
	// one cache in front of the origin, 1 however many viewers watch.
	MaxServedPerChunk uint64
	// NotFound counts the 404s; Waited the requests that waited for their
	// chunk's publication (HoldFor).
	NotFound, Waited uint64
	// Held and HeldBytes are the chunks held now, published or not.
	Held      int
	HeldBytes int
	// PublishedTick is the last tick of the newest fragment of deltas or
	// part published (0: none yet): the newest tick a viewer can have.
	PublishedTick uint32
}

// HoldFor is the longest a request for a chunk waits for its publication.
const HoldFor = time.Second

// New returns a Server with cfg.
func New(cfg Config) *Server {
	if cfg.Keep <= 0 {
		cfg.Keep = 40
	}
	if cfg.FragmentTicks <= 0 {
		cfg.FragmentTicks = broadcast.DefaultFragmentTicks
	}
	if cfg.PartTicks == 0 {
		cfg.PartTicks = broadcast.DefaultPartTicks
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Server{cfg: cfg}
}

// Chunk takes a chunk from a Writer (Sink).
func (o *Server) Chunk(h broadcast.Header, b []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.cfg.Now()
	switch h.Kind {
	case broadcast.KindDeltas:
		o.lastDeltas = now
	case broadcast.KindPart:
		o.lastPart = now
	}
	o.pending = append(o.pending, held{h: h, b: b, written: now})
	o.publish()
}

// End says that the match is over: once its last chunk is published, the
// index says so.
func (o *Server) End() {
	o.mu.Lock()
	o.ended = true
	o.mu.Unlock()
}

// publish moves what its delay let go from pending to held, and forgets
// the held chunks of fragments Keep or more older than the newest (a
// keyframe, its deltas and their parts). o.mu is held.
func (o *Server) publish() {
	now := o.cfg.Now()
	n := 0
	for n < len(o.pending) && !o.pending[n].written.Add(o.cfg.Delay).After(now) {
		n++
	}
	if n == 0 {
		return
	}
	o.held = append(o.held, o.pending[:n]...)
	o.pending = append(o.pending[:0], o.pending[n:]...)
	newest := o.held[len(o.held)-1].h.Number
	extra := 0
	for extra < len(o.held) && uint64(o.held[extra].h.Number)+uint64(o.cfg.Keep) <= uint64(newest) {
		extra++
	}
	if extra > 0 {
		clear(o.held[:extra])
		o.held = append(o.held[:0], o.held[extra:]...)
	}
}

// index returns the Index of what is published, made now. o.mu is held.
func (o *Server) index() broadcast.Index {
	now := o.cfg.Now()
	ix := broadcast.Index{
		Format: broadcast.Version, Protocol: o.cfg.Protocol, TickRate: o.cfg.TickRate,
		FragmentTicks: o.cfg.FragmentTicks, DelayMillis: o.cfg.Delay.Milliseconds(),
		MadeUnixMillis: now.UnixMilli(),
	}
	if o.cfg.PartTicks > 0 {
		ix.PartTicks = o.cfg.PartTicks
	}
	var haveKey = map[uint32]bool{}
	for i := range o.held {
		c := &o.held[i]
		switch c.h.Kind {
		case broadcast.KindKeyframe:
			haveKey[c.h.Number] = true
		case broadcast.KindDeltas:
			if !haveKey[c.h.Number] {
				continue
			}
			if !ix.Ready {
				ix.Ready, ix.Oldest = true, c.h.Number
			}
			ix.Newest, ix.NewestTick = c.h.Number, c.h.Last()
		}
	}
	if ix.Ready {
		for i := range o.held {
			if c := &o.held[i]; c.h.Kind == broadcast.KindPart && c.h.Number == ix.Newest+1 {
				ix.Parts = max(ix.Parts, c.h.Part+1)
			}
		}
	}
	ix.Ended = o.ended && len(o.pending) == 0
	for _, c := range o.pending {
		if c.h.Kind == broadcast.KindDeltas {
			ix.NextMillis = max(1, c.written.Add(o.cfg.Delay).Sub(now).Milliseconds())
			break
		}
	}
	if ix.NextMillis == 0 && !ix.Ended && o.cfg.TickRate > 0 && !o.lastDeltas.IsZero() {
		// The next is still being written: due a fragment after the last.
		frag := time.Duration(float64(o.cfg.FragmentTicks) / o.cfg.TickRate * float64(time.Second))
		ix.NextMillis = max(1, o.lastDeltas.Add(frag+o.cfg.Delay).Sub(now).Milliseconds())
	}
	if ix.PartTicks > 0 && !ix.Ended {
		for _, c := range o.pending {
			if c.h.Kind == broadcast.KindPart {
				ix.NextPartMillis = max(1, c.written.Add(o.cfg.Delay).Sub(now).Milliseconds())
				break
			}
		}
		if ix.NextPartMillis == 0 && o.cfg.TickRate > 0 && !o.lastPart.IsZero() {
			part := time.Duration(float64(o.cfg.PartTicks) / o.cfg.TickRate * float64(time.Second))
			ix.NextPartMillis = max(1, o.lastPart.Add(part+o.cfg.Delay).Sub(now).Milliseconds())
		}
	}
	return ix
}

// ServeHTTP serves the index and the chunks.
func (o *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	path := strings.TrimPrefix(r.URL.Path, "/")
	o.mu.Lock()
	o.publish()
	if path == "index.json" {
		ix := o.index()
		o.stats.IndexServed++
		o.mu.Unlock()
		b, _ := json.Marshal(ix)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=1")
		o.write(w, r, b)
		return
	}
	c := find(o.held, path)
	if c == nil {
		if wait, ok := o.due(path); ok && wait <= HoldFor {
			o.mu.Unlock()
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			}
			o.mu.Lock()
			o.publish()
			o.stats.Waited++
			c = find(o.held, path)
		}
	}
	if c == nil {
		o.stats.NotFound++
		o.mu.Unlock()
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, "no such chunk", http.StatusNotFound)
		return
	}
	c.served++
	o.stats.ChunksServed++
	o.stats.MaxServedPerChunk = max(o.stats.MaxServedPerChunk, c.served)
	b := c.b
	o.mu.Unlock()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	o.write(w, r, b)
}

func (o *Server) write(w http.ResponseWriter, r *http.Request, b []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	if r.Method == http.MethodHead {
		return
	}
	n, _ := w.Write(b)
	o.mu.Lock()
	o.stats.BytesServed += uint64(n)
	o.mu.Unlock()
}

// find returns the chunk of list that path names ("N/key", "N/delta" or
// "N/part/P"), or nil.
func find(list []held, path string) *held {
	num, kind, ok := strings.Cut(path, "/")
	if !ok {
		return nil
	}
	n, ok := decimal(num)
	if !ok {
		return nil
	}
	part := -1
	var k broadcast.Kind
	switch kind {
	case "key":
		k = broadcast.KindKeyframe
	case "delta":
		k = broadcast.KindDeltas
	default:
		p, ok := strings.CutPrefix(kind, "part/")
		if !ok {
			return nil
		}
		pn, ok := decimal(p)
		if !ok {
			return nil
		}
		k, part = broadcast.KindPart, int(pn)
	}
	for i := len(list) - 1; i >= 0; i-- {
		if c := &list[i]; c.h.Kind == k && c.h.Number == n && (part < 0 || c.h.Part == part) {
			return c
		}
	}
	return nil
}

// due returns how long until the pending chunk path names is published;
// ok false when none such is pending. o.mu is held.
func (o *Server) due(path string) (time.Duration, bool) {
	c := find(o.pending, path)
	if c == nil {
		return 0, false
	}
	return max(c.written.Add(o.cfg.Delay).Sub(o.cfg.Now()), 0), true
}

// decimal reads a number as a path writes it: decimal digits, no sign, no
// leading zero, below 2^32.
func decimal(s string) (uint32, bool) {
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || strconv.FormatUint(n, 10) != s {
		return 0, false
	}
	return uint32(n), true
}

// Stats returns the Server's counters.
func (o *Server) Stats() Stats {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.publish()
	st := o.stats
	for i := len(o.held) - 1; i >= 0; i-- {
		if c := &o.held[i]; c.h.Kind == broadcast.KindDeltas || c.h.Kind == broadcast.KindPart {
			st.PublishedTick = c.h.Last()
			break
		}
	}
	st.Held = len(o.pending) + len(o.held)
	for _, c := range o.pending {
		st.HeldBytes += len(c.b)
	}
	for _, c := range o.held {
		st.HeldBytes += len(c.b)
	}
	return st
}
