package main

import (
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/broadcast/origin"
)

// BroadcastPath is where each match's broadcast is served, under its id:
// GET /broadcast/ID/index.json, /broadcast/ID/N/key, /broadcast/ID/N/delta.
const BroadcastPath = "/broadcast/"

// casts are the matches' broadcasts: an origin each (-broadcast), a replay
// file each (-record DIR).
type casts struct {
	log     *slog.Logger
	serve   bool
	delay   time.Duration
	dir     string
	tick    float64
	frag    int
	mu      sync.Mutex
	origins map[string]*origin.Server
	files   []*replayFile
	closed  chan struct{}
}

// replayFile is one match's recording.
type replayFile struct {
	f   *os.File
	rec *broadcast.Recorder
}

func newCasts(log *slog.Logger, o options) *casts {
	return &casts{log: log, serve: o.broadcast, delay: o.broadcastDelay, dir: o.record, tick: o.tick,
		frag: broadcast.DefaultFragmentTicks, origins: map[string]*origin.Server{}, closed: make(chan struct{})}
}

// sinks returns the sinks of match id's broadcast: none without
// -broadcast or -record.
func (c *casts) sinks(id string) ([]broadcast.Sink, error) {
	if c == nil {
		return nil, nil
	}
	var sinks []broadcast.Sink
	if c.serve {
		o := origin.New(origin.Config{Delay: c.delay, Protocol: uint32(protocol.Version), TickRate: c.tick, FragmentTicks: c.frag})
		c.origins[id] = o
		sinks = append(sinks, o)
	}
	if c.dir != "" {
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			return nil, fmt.Errorf("-record: %w", err)
		}
		name := filepath.Join(c.dir, fmt.Sprintf("match-%s-%s%s", id, time.Now().UTC().Format("20060102-150405"), ReplayExt))
		f, err := os.Create(name)
		if err != nil {
			return nil, fmt.Errorf("-record: %w", err)
		}
		rec := broadcast.NewRecorder(f, broadcast.ReplayHeader{Protocol: uint32(protocol.Version), TickRate: c.tick, FragmentTicks: c.frag})
		c.files = append(c.files, &replayFile{f: f, rec: rec})
		c.log.Info("recording the match", "match", id, "file", name)
		sinks = append(sinks, rec)
	}
	return sinks, nil
}

// ReplayExt ends the name of every replay file.
const ReplayExt = ".slreplay"

// ServeHTTP serves /broadcast/ID/... from match ID's origin.
func (c *casts) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o, ok := c.origins[r.PathValue("match")]
	if !ok {
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, "no broadcast of that match (GET /matches lists them; the server broadcasts with -broadcast)", http.StatusNotFound)
		return
	}
	http.StripPrefix(BroadcastPath+r.PathValue("match"), o).ServeHTTP(w, r)
}

// close ends the broadcasts once the matches stopped: the origins say the
// match ended, the replay files are closed.
func (c *casts) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.closed:
		return
	default:
	}
	defer close(c.closed)
	for _, o := range c.origins {
		o.End()
	}
	for _, rf := range c.files {
		err := rf.rec.Err()
		if cerr := rf.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			c.log.Error("recording", "file", rf.f.Name(), "err", err)
			continue
		}
		c.log.Info("recorded the match", "file", rf.f.Name(), "bytes", rf.rec.Bytes())
	}
}

// stats returns each match's origin counters (GET /debug/vars, "broadcast").
func (c *casts) stats() map[string]origin.Stats {
	out := make(map[string]origin.Stats, len(c.origins))
	for id, o := range c.origins {
		out[id] = o.Stats()
	}
	return out
}
