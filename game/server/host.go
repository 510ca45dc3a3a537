package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/transport"
)

// Hosted is one match of a Host.
type Hosted struct {
	// ID names the match in GET /matches and POST /signal?match=ID.
	ID string
	// Name is the match's name for people.
	Name string
	// Server runs the match.
	Server *Server
	// Bots is how many of the match's players are the server's own bots:
	// they take seats, so a match has room for Server.MaxClients()-Bots
	// people.
	Bots int
}

// Host runs several independent matches in one process: each has its own
// world, tick loop goroutine, histories and streams, and no lock is shared
// between two matches' ticks. It lists them (ServeHTTP, for GET /matches)
// and picks the match an arriving player joins (Pick). Its methods may be
// called from any goroutine.
type Host struct {
	matches []Hosted
	byID    map[string]int
}

// NewHost returns a host of matches, listed in the order given. Each needs
// an ID of its own and a Server.
func NewHost(matches ...Hosted) (*Host, error) {
	if len(matches) == 0 {
		return nil, fmt.Errorf("%w: no match", ErrBadHost)
	}
	h := &Host{matches: append([]Hosted(nil), matches...), byID: make(map[string]int, len(matches))}
	for i, m := range h.matches {
		switch _, dup := h.byID[m.ID]; {
		case m.ID == "":
			return nil, fmt.Errorf("%w: match %d has no ID", ErrBadHost, i+1)
		case m.Server == nil:
			return nil, fmt.Errorf("%w: match %q has no server", ErrBadHost, m.ID)
		case dup:
			return nil, fmt.Errorf("%w: two matches are called %q", ErrBadHost, m.ID)
		}
		h.byID[m.ID] = i
	}
	return h, nil
}

// Matches returns the matches, in order. The slice is the host's own.
func (h *Host) Matches() []Hosted { return h.matches }

// Match returns the match called id.
func (h *Host) Match(id string) (Hosted, bool) {
	i, ok := h.byID[id]
	if !ok {
		return Hosted{}, false
	}
	return h.matches[i], true
}

// Pick returns the ID of the match a new player joins: id if it names a
// match with room, or, when id is empty, the fullest match with room (the
// first listed among equals), so that players meet rather than spread.
// people(m) is how many people match m has now, or is about to have (for
// a WebRTC server, its live sessions on m's route). The error wraps
// ErrNoMatch for an unknown id and ErrMatchFull when there is no room.
func (h *Host) Pick(id string, people func(id string) int) (string, error) {
	if id != "" {
		m, ok := h.Match(id)
		switch {
		case !ok:
			return "", fmt.Errorf("no match %q on this server (GET %s lists them): %w", id, protocol.MatchesPath, ErrNoMatch)
		case m.Bots+people(m.ID) >= m.Server.MaxClients():
			return "", fmt.Errorf("match %q is full: %w", id, ErrMatchFull)
		}
		return id, nil
	}
	best, most := "", -1
	for _, m := range h.matches {
		if n := m.Bots + people(m.ID); n < m.Server.MaxClients() && n > most {
			best, most = m.ID, n
		}
	}
	if best == "" {
		return "", fmt.Errorf("every match is full: %w", ErrMatchFull)
	}
	return best, nil
}

// SpectatorRoute is the route of match id's spectators: a transport that
// routes connections by match hands Run the spectators of match id under
// this name, apart from its players.
func SpectatorRoute(id string) string { return id + "/watch" }

// PickToWatch returns the ID of the match a new spectator watches: id if
// it names a match with room for another spectator, or, when id is empty,
// the match with the most players that has room. watching(m) is how many
// spectators match m has now, or is about to have. The error wraps
// ErrNoMatch for an unknown id and ErrMatchFull when there is no room.
func (h *Host) PickToWatch(id string, watching func(id string) int) (string, error) {
	if id != "" {
		m, ok := h.Match(id)
		switch {
		case !ok:
			return "", fmt.Errorf("no match %q on this server (GET %s lists them): %w", id, protocol.MatchesPath, ErrNoMatch)
		case watching(m.ID) >= m.Server.MaxSpectators():
			return "", fmt.Errorf("match %q takes no more spectators: %w", id, ErrMatchFull)
		}
		return id, nil
	}
	best, most := "", -1
	for _, m := range h.matches {
		if n := m.Server.Stats().Clients; watching(m.ID) < m.Server.MaxSpectators() && n > most {
			best, most = m.ID, n
		}
	}
	if best == "" {
		return "", fmt.Errorf("no match takes more spectators: %w", ErrMatchFull)
	}
	return best, nil
}

// List returns every match as GET /matches lists it: players are people
// and bots (protocol.MatchInfo).
func (h *Host) List() []protocol.MatchInfo {
	out := make([]protocol.MatchInfo, len(h.matches))
	for i, m := range h.matches {
		st := m.Server.Stats()
		out[i] = protocol.MatchInfo{
			ID: m.ID, Name: m.Name, Players: st.Clients, Bots: m.Bots, Capacity: m.Server.MaxClients(),
			Spectators: st.Spectators, SpectatorCapacity: m.Server.MaxSpectators(),
			Round: st.Round, TimeLeftS: math.Round(st.RoundLeft.Seconds()*10) / 10, Intermission: st.Intermission, Overruns: st.Overruns,
			TickP99Ms: float64(st.TickP99.Microseconds()) / 1000,
		}
	}
	return out
}

// People returns how many people (players that are not the server's bots)
// are in the matches, in all.
func (h *Host) People() int {
	n := 0
	for _, m := range h.matches {
		n += max(0, m.Server.Stats().Clients-m.Bots)
	}
	return n
}

// Players returns how many players (people and bots) the matches have, and
// take at most, in all.
func (h *Host) Players() (players, capacity int) {
	for _, m := range h.matches {
		players += m.Server.Stats().Clients
		capacity += m.Server.MaxClients()
	}
	return players, capacity
}

// ServeHTTP answers GET (and HEAD) /matches with the match list as JSON
// (protocol.MatchList), and any other method with 405 "method not allowed".
func (h *Host) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body, err := json.Marshal(protocol.MatchList{Matches: h.List()})
	if err != nil { // a list of plain values: not expected
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	body = append(body, '\n')
	hd := w.Header()
	hd.Set("Content-Type", "application/json")
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	hd.Set("Cache-Control", "no-store")
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

// Run runs every match until ctx ends: each its own tick loop (Server.Run)
// and its own accepter, which adds the connections accept returns for its
// ID (for a WebRTC server, AcceptRoute on the match's route), and one for
// its spectators, on SpectatorRoute(ID) (when it takes any). If one
// fails, the others stop too and Run returns its error.
func (h *Host) Run(ctx context.Context, accept func(ctx context.Context, id string) (transport.Conn, error)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	fail := func(err error) {
		if err != nil {
			once.Do(func() { first = err; cancel() })
		}
	}
	for _, m := range h.matches {
		wg.Go(func() { fail(m.Server.Run(ctx)) })
		wg.Go(func() {
			err := m.Server.Serve(ctx, func(ctx context.Context) (transport.Conn, error) { return accept(ctx, m.ID) })
			if err != nil {
				err = fmt.Errorf("match %s: %w", m.ID, err)
			}
			fail(err)
		})
		if m.Server.MaxSpectators() > 0 {
			route := SpectatorRoute(m.ID)
			wg.Go(func() {
				err := m.Server.ServeSpectators(ctx, func(ctx context.Context) (transport.Conn, error) { return accept(ctx, route) })
				if err != nil {
					err = fmt.Errorf("match %s's spectators: %w", m.ID, err)
				}
				fail(err)
			})
		}
	}
	wg.Wait()
	return first
}
