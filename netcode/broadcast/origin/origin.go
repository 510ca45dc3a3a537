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
	// Protocol, TickRate and FragmentTicks are told in the index.
	Protocol      uint32
	TickRate      float64
	FragmentTicks int
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
//
// A chunk not published yet, or forgotten, is 404 with Cache-Control:
// no-store. Mount it under a prefix with http.StripPrefix.
type Server struct {
	cfg Config

	mu      sync.Mutex
	pending []held // written, not yet published (in order)
	held    []held // published, oldest first
	ended   bool
	// lastDeltas is when the last fragment of deltas was written.
	lastDeltas time.Time
	stats      Stats
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
	// NotFound counts the 404s.
	NotFound uint64
	// Held and HeldBytes are the chunks held now, published or not.
	Held      int
	HeldBytes int
	// PublishedTick is the last tick of the newest fragment of deltas
	// published (0: none yet), as the index would name it now.
	PublishedTick uint32
}

// New returns a Server with cfg.
func New(cfg Config) *Server {
	if cfg.Keep <= 0 {
		cfg.Keep = 40
	}
	if cfg.FragmentTicks <= 0 {
		cfg.FragmentTicks = broadcast.DefaultFragmentTicks
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
	if h.Kind == broadcast.KindDeltas {
		o.lastDeltas = now
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
// the oldest held beyond Keep fragments. o.mu is held.
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
	if extra := len(o.held) - 2*o.cfg.Keep; extra > 0 {
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
	c := o.find(path)
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

// find returns the published chunk path names ("N/key" or "N/delta"), or
// nil. o.mu is held.
func (o *Server) find(path string) *held {
	num, kind, ok := strings.Cut(path, "/")
	if !ok {
		return nil
	}
	n, err := strconv.ParseUint(num, 10, 32)
	if err != nil || strconv.FormatUint(n, 10) != num {
		return nil
	}
	var k broadcast.Kind
	switch kind {
	case "key":
		k = broadcast.KindKeyframe
	case "delta":
		k = broadcast.KindDeltas
	default:
		return nil
	}
	for i := len(o.held) - 1; i >= 0; i-- {
		if c := &o.held[i]; c.h.Kind == k && c.h.Number == uint32(n) {
			return c
		}
	}
	return nil
}

// Stats returns the Server's counters.
func (o *Server) Stats() Stats {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.publish()
	st := o.stats
	for i := len(o.held) - 1; i >= 0; i-- {
		if c := &o.held[i]; c.h.Kind == broadcast.KindDeltas {
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
