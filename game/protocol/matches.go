package protocol

// The match server's HTTP paths and the match list's JSON: what a client
// and the server it joins agree on before any data channel opens
// (docs/PROTOCOL.md §1).

// SignalPath is where a match server takes WebRTC offers.
const SignalPath = "/signal"

// ICEServersPath is where a match server hands a joining client the STUN
// and TURN servers to gather candidates with (GET, JSON: an
// iceservers.List, with the join token's Authorization when tokens are on).
const ICEServersPath = "/ice"

// MatchesPath is where a match server lists its matches (GET, JSON: a
// MatchList).
const MatchesPath = "/matches"

// MatchQuery is the query parameter of a signalling request that names the
// match to join: POST /signal?match=ID.
const MatchQuery = "match"

// MatchInfo is one match a server hosts, as GET /matches lists it.
type MatchInfo struct {
	// ID names the match in POST /signal?match=ID.
	ID string `json:"id"`
	// Name is the match's name for people.
	Name string `json:"name"`
	// Players counts everyone in the match: connected people and the
	// server's bots (Bots of them).
	Players int `json:"players"`
	// Bots is how many of Players are the server's bots.
	Bots int `json:"bots"`
	// Capacity is the most players (people and bots) the match takes.
	Capacity int `json:"capacity"`
	// Spectators counts those watching the match (POST
	// /signal?watch=1), who are not players; SpectatorCapacity is the most
	// it takes at once (0: it takes none).
	Spectators        int `json:"spectators"`
	SpectatorCapacity int `json:"spectator_capacity"`
	// Round is the round under way (1 for the first); TimeLeftS the
	// seconds left in it (0 during the intermission between two rounds).
	Round        uint32  `json:"round"`
	TimeLeftS    float64 `json:"time_left_s"`
	Intermission bool    `json:"intermission"`
	// Overruns counts the match's ticks that took longer than the tick
	// period, and TickP99Ms the 99th percentile of its ticks' times.
	Overruns  uint64  `json:"overruns"`
	TickP99Ms float64 `json:"tick_p99_ms"`
}

// Full reports whether the match has no room for another player.
func (m MatchInfo) Full() bool { return m.Players >= m.Capacity }

// MatchList is the body of GET /matches.
type MatchList struct {
	Matches []MatchInfo `json:"matches"`
}
