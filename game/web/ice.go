package web

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/iceservers"
	"github.com/sightline-game/sightline/netcode/jointoken"
)

// Handout returns what GET /ice hands each joining client, from a match
// server's flags: the TURN relays of relay (-relay, comma-separated URLs)
// with credentials minted under the secret in the file secretFile
// (-relay-secret), and STUN: the relays' and stun's (-stun, HOST:PORT). It
// fails on URLs that do not parse, TURN without a secret or a secret
// without TURN.
func Handout(relay, secretFile, stun string) (*iceservers.Handout, error) {
	var urls []string
	if relay != "" {
		var err error
		if urls, err = iceservers.ParseURLs(relay); err != nil {
			return nil, fmt.Errorf("-relay: %w", err)
		}
	}
	turn := false
	for _, u := range urls {
		turn = turn || strings.HasPrefix(u, "turn:") || strings.HasPrefix(u, "turns:")
	}
	if stun != "" {
		urls = append(urls, "stun:"+stun)
	}
	h := &iceservers.Handout{URLs: urls}
	switch {
	case turn && secretFile == "":
		return nil, errors.New("-relay names TURN relays: -relay-secret is needed to mint their credentials")
	case !turn && secretFile != "":
		return nil, errors.New("-relay-secret without a turn: or turns: URL in -relay")
	case turn:
		secret, err := iceservers.LoadSecret(secretFile)
		if err != nil {
			return nil, fmt.Errorf("-relay-secret: %w", err)
		}
		h.Secret = secret
	}
	return h, nil
}

// STUNFor returns the STUN server a host behind NAT asks its public
// address from (host:port): the first turn: relay of relay, else, hosting
// through the rendezvous at invite, port 3478 of the rendezvous's host
// (cmd/relay serves both), else "".
func STUNFor(relay, invite string) string {
	if s := STUNFromRelay(relay); s != "" {
		return s
	}
	u, err := url.Parse(invite)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	return net.JoinHostPort(u.Hostname(), "3478")
}

// STUNFromRelay returns the host:port of the first turn: URL of -relay
// with UDP (a TURN server answers STUN too), "" if none.
func STUNFromRelay(relay string) string {
	urls, err := iceservers.ParseURLs(relay)
	if err != nil {
		return ""
	}
	for _, u := range urls {
		rest, ok := strings.CutPrefix(u, "turn:")
		if !ok {
			continue
		}
		hostport, query, _ := strings.Cut(rest, "?")
		if q, _ := url.ParseQuery(query); q.Get("transport") == "tcp" {
			continue
		}
		if _, _, err := net.SplitHostPort(hostport); err != nil {
			hostport = net.JoinHostPort(strings.Trim(hostport, "[]"), "3478")
		}
		return hostport
	}
	return ""
}

// ICEServers serves GET /ice (protocol.ICEServersPath): the handout, with
// credentials fresh for each request. With join tokens on (ck), only a
// token that would be admitted gets it (checked, not spent: the offer that
// follows spends it); others get the refusal the offer would.
//
// A server without a relay of its own (h.HasTURN false) hands out beside
// its STUN servers those a rendezvous gave it (relayed, nil until then).
func ICEServers(log *slog.Logger, h *iceservers.Handout, relayed func() *json.RawMessage, ck *jointoken.Checker) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ck != nil {
			if _, err := ck.Verify(jointoken.FromRequest(r), r.URL.Query().Get(protocol.MatchQuery)); err != nil {
				http.Error(w, err.Error(), jointoken.Status(err))
				return
			}
		}
		var id [6]byte
		_, _ = rand.Read(id[:])
		list := h.List(hex.EncodeToString(id[:]), time.Now())
		if r := relayed(); r != nil && !h.HasTURN() {
			var servers []iceservers.Server
			if json.Unmarshal(*r, &servers) == nil {
				list.ICEServers = append(list.ICEServers, servers...)
			}
		}
		body, err := json.Marshal(list)
		if err != nil {
			log.Error("ICE servers", "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(body)
	})
}
