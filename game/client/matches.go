package client

import (
	"net/url"
	"strings"

	"github.com/sightline-game/sightline/game/protocol"
)

// The match list and the signalling paths are the protocol's
// (game/protocol); the client names them too, for its callers.
const (
	// MatchesPath is where a match server lists its matches (GET, JSON: a
	// MatchList).
	MatchesPath = protocol.MatchesPath
	// MatchQuery is the query parameter of a signalling request that
	// names the match to join: POST /signal?match=ID.
	MatchQuery = protocol.MatchQuery
)

// MatchInfo is one match a server hosts, as GET /matches lists it.
type MatchInfo = protocol.MatchInfo

// MatchList is the body of GET /matches.
type MatchList = protocol.MatchList

// ICEServersURL returns where the server at baseURL hands out the ICE
// servers its clients gather with: baseURL/ice.
func ICEServersURL(baseURL string) string {
	return strings.TrimRight(baseURL, "/") + protocol.ICEServersPath
}

// SignalURL returns the signalling address of the server at baseURL
// (http://host:port) for the match id: baseURL/signal?match=id, or
// baseURL/signal when id is empty (the server then picks the match).
func SignalURL(baseURL, id string) string { return signalURL(baseURL, id, false) }

// SpectatorSignalURL returns the signalling address that joins the match id
// of the server at baseURL as a spectator: baseURL/signal?watch=1 (with
// match=id when id is not empty).
func SpectatorSignalURL(baseURL, id string) string { return signalURL(baseURL, id, true) }

func signalURL(baseURL, id string, watch bool) string {
	u := strings.TrimRight(baseURL, "/") + SignalPath
	q := url.Values{}
	if id != "" {
		q.Set(MatchQuery, id)
	}
	if watch {
		q.Set(protocol.WatchQuery, "1")
	}
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}
