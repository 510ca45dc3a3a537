package agones

import (
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"sync"
	"time"
)

// sidecar is a test-only STAND-IN for the Agones SDK sidecar, not Agones
// itself: it follows the documented REST interface (POST /ready, /health,
// /shutdown; GET /gameserver; GET /watch/gameserver as JSON lines
// {"result": GameServer}; PUT /metadata/label {key, value}) and records
// every call with the time it arrived, so tests can check the order and
// timing of the lifecycle's calls. While down it refuses connections.
type sidecar struct {
	mu       sync.Mutex
	start    time.Time
	calls    []call
	refused  []time.Duration
	gs       GameServer
	down     bool
	watchers map[chan struct{}]struct{}
}

// call is one request the stand-in answered.
type call struct {
	at      time.Duration // since the stand-in started
	route   string        // "POST /ready"
	players string        // the players label when the call arrived
}

func newSidecar() *sidecar {
	return &sidecar{
		start:    time.Now(),
		gs:       GameServer{ObjectMeta: ObjectMeta{Name: "sightline-x1", Labels: map[string]string{}}, Status: Status{State: "Scheduled", Address: "203.0.113.9", Ports: []Port{{Name: "http", Port: 7001}, {Name: "udp", Port: 7002}}}},
		watchers: map[chan struct{}]struct{}{},
	}
}

// setDown makes the stand-in refuse connections (down) or answer again.
func (s *sidecar) setDown(down bool) {
	s.mu.Lock()
	s.down = down
	s.notifyLocked()
	s.mu.Unlock()
}

// allocate moves the GameServer to Allocated, as an allocation would.
func (s *sidecar) allocate() {
	s.mu.Lock()
	s.gs.Status.State = StateAllocated
	s.gs.ObjectMeta.Labels["match"] = "m-42"
	s.notifyLocked()
	s.mu.Unlock()
}

func (s *sidecar) notifyLocked() {
	for ch := range s.watchers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (s *sidecar) snapshot() GameServer {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.gs
	gs.ObjectMeta.Labels = maps.Clone(s.gs.ObjectMeta.Labels)
	return gs
}

// callsTo returns the times of the calls to route.
func (s *sidecar) callsTo(route string) []call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []call
	for _, c := range s.calls {
		if c.route == route {
			out = append(out, c)
		}
	}
	return out
}

func (s *sidecar) allCalls() []call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]call(nil), s.calls...)
}

func (s *sidecar) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	route := r.Method + " " + r.URL.Path
	s.mu.Lock()
	s.calls = append(s.calls, call{at: time.Since(s.start), route: route, players: s.gs.ObjectMeta.Labels["agones.dev/sdk-"+PlayersLabel]})
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	setState := func(state string) {
		s.mu.Lock()
		s.gs.Status.State = state
		s.notifyLocked()
		s.mu.Unlock()
	}
	switch route {
	case "POST /ready":
		setState("Ready")
	case "POST /shutdown":
		setState("Shutdown")
	case "POST /health":
	case "PUT /metadata/label":
		var kv struct{ Key, Value string }
		if err := json.NewDecoder(r.Body).Decode(&kv); err != nil || kv.Key == "" {
			http.Error(w, "bad label", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.gs.ObjectMeta.Labels["agones.dev/sdk-"+kv.Key] = kv.Value
		s.notifyLocked()
		s.mu.Unlock()
	case "GET /gameserver":
		json.NewEncoder(w).Encode(s.snapshot())
		return
	case "GET /watch/gameserver":
		ch := make(chan struct{}, 1)
		s.mu.Lock()
		s.watchers[ch] = struct{}{}
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			delete(s.watchers, ch)
			s.mu.Unlock()
		}()
		enc := json.NewEncoder(w)
		for {
			if err := enc.Encode(map[string]GameServer{"result": s.snapshot()}); err != nil {
				return
			}
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			select {
			case <-r.Context().Done():
				return
			case <-ch:
			}
			s.mu.Lock()
			down := s.down
			s.mu.Unlock()
			if down {
				return // the sidecar went away: the stream breaks
			}
		}
	default:
		http.NotFound(w, r)
		return
	}
	io.WriteString(w, "{}\n")
}

// errRefused is what the in-memory transport returns while the stand-in
// is down.
var errRefused = errors.New("connect: connection refused")

// transport carries requests to the stand-in in memory (through a pipe),
// so tests can run in a synctest bubble with fake time.
type transport struct{ s *sidecar }

func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.s.mu.Lock()
	if t.s.down {
		t.s.refused = append(t.s.refused, time.Since(t.s.start))
		t.s.mu.Unlock()
		return nil, errRefused
	}
	t.s.mu.Unlock()
	pr, pw := io.Pipe()
	rw := &pipeWriter{header: http.Header{}, pw: pw, started: make(chan struct{})}
	go func() {
		t.s.ServeHTTP(rw, req)
		rw.WriteHeader(http.StatusOK)
		pw.Close()
	}()
	<-rw.started
	return &http.Response{StatusCode: rw.code, Status: http.StatusText(rw.code), Header: rw.header, Body: pr, Request: req, ProtoMajor: 1, ProtoMinor: 1}, nil
}

type pipeWriter struct {
	header  http.Header
	pw      *io.PipeWriter
	code    int
	once    sync.Once
	started chan struct{}
}

func (w *pipeWriter) Header() http.Header { return w.header }
func (w *pipeWriter) WriteHeader(code int) {
	w.once.Do(func() { w.code = code; close(w.started) })
}
func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.pw.Write(b)
}
func (w *pipeWriter) Flush() {}
