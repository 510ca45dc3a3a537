package iceservers

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Server is one entry of an RTCPeerConnection's iceServers, as JSON as the
// browser's RTCIceServer.
type Server struct {
	URLs       []string `json:"urls"`
	Username   string   `json:"username,omitempty"`
	Credential string   `json:"credential,omitempty"`
}

// List is the body of a game server's GET /ice.
type List struct {
	ICEServers []Server `json:"iceServers"`
	// TTL is how many seconds the credentials live.
	TTL int `json:"ttl,omitempty"`
}

// The limits of a list a client takes (ParseList).
const (
	MaxListBytes  = 16 << 10
	MaxServers    = 16
	MaxURLs       = 8
	MaxFieldBytes = 512
)

// ParseURLs splits a comma-separated list of stun:, turn: and turns: URLs
// (RFC 7064 and 7065: scheme:host[:port][?transport=udp|tcp], the
// transport for TURN only) and checks each.
func ParseURLs(list string) ([]string, error) {
	var out []string
	for _, u := range strings.Split(list, ",") {
		u = strings.TrimSpace(u)
		if u == "" {
			continue
		}
		if err := checkURL(u); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: none in %q", ErrBadURL, list)
	}
	return out, nil
}

// checkURL checks one ICE server URL.
func checkURL(u string) error {
	scheme, rest, ok := strings.Cut(u, ":")
	if !ok || (scheme != "stun" && scheme != "turn" && scheme != "turns") {
		return fmt.Errorf("%w: %q: not stun:, turn: or turns:", ErrBadURL, u)
	}
	hostport, query, hasQuery := strings.Cut(rest, "?")
	if hasQuery {
		if scheme == "stun" {
			return fmt.Errorf("%w: %q: a STUN URL takes no query", ErrBadURL, u)
		}
		q, err := url.ParseQuery(query)
		if err != nil || len(q) != 1 || (q.Get("transport") != "udp" && q.Get("transport") != "tcp") {
			return fmt.Errorf("%w: %q: the query is ?transport=udp or ?transport=tcp", ErrBadURL, u)
		}
	}
	host, port := splitHostPort(hostport)
	if host == "" || strings.ContainsAny(host, "/@ []") {
		return fmt.Errorf("%w: %q: no host", ErrBadURL, u)
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%w: %q: port %q", ErrBadURL, u, port)
		}
	}
	return nil
}

// Handout mints the ICE servers for a joining client.
type Handout struct {
	// URLs are stun:, turn: and turns: URLs (ParseURLs).
	URLs []string
	// Secret mints the TURN servers' credentials; needed with a turn: or
	// turns: URL.
	Secret Secret
	// TTL is how long credentials live (0: DefaultTTL).
	TTL time.Duration
	// Peers scope the credentials: the addresses of the game their
	// holders join (a game server's public addresses, a host's), the only
	// ones a relay lets their allocations reach (Scope). None mints
	// unscoped credentials, which a relay lets reach only the peers its
	// operator allows.
	Peers []netip.Addr
	// Window, if set, rounds the minting time down to a multiple of it,
	// the credential living TTL plus Window from there: one id's requests
	// within a window get the very same credential (a joiner asking
	// again is handed what it already holds), which lives between TTL
	// and TTL plus Window. 0: minted at the request's time.
	Window time.Duration
}

// HasTURN reports whether h hands out a TURN relay (with credentials).
func (h Handout) HasTURN() bool {
	for _, u := range h.URLs {
		if strings.HasPrefix(u, "turn:") || strings.HasPrefix(u, "turns:") {
			return !h.Secret.IsZero()
		}
	}
	return false
}

// List returns the client's ICE servers: a stun: URL for each distinct
// host:port among the turn: URLs (a TURN server answers STUN too) and the
// stun: URLs, without credentials, and one server with every turn: and
// turns: URL and a credential for id minted at now (at the start of now's
// Window, with one), scoped to Peers; its TTL is the seconds it has left.
func (h Handout) List(id string, now time.Time) List {
	ttl := h.TTL
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	var stun, turn []string
	addSTUN := func(u string) {
		for _, have := range stun {
			if have == u {
				return
			}
		}
		stun = append(stun, u)
	}
	for _, u := range h.URLs {
		switch {
		case strings.HasPrefix(u, "stun:"):
			addSTUN(u)
		case strings.HasPrefix(u, "turn:"):
			turn = append(turn, u)
			hostport, query, _ := strings.Cut(strings.TrimPrefix(u, "turn:"), "?")
			if !strings.Contains(query, "transport=tcp") {
				addSTUN("stun:" + hostport)
			}
		case strings.HasPrefix(u, "turns:"):
			turn = append(turn, u)
		}
	}
	l := List{ICEServers: []Server{}}
	if len(stun) > 0 {
		l.ICEServers = append(l.ICEServers, Server{URLs: stun})
	}
	if len(turn) > 0 && !h.Secret.IsZero() {
		minted, life := now, ttl
		if h.Window > 0 {
			minted, life = now.Truncate(h.Window), ttl+h.Window
		}
		c := Mint(h.Secret, id, minted, life, h.Peers...)
		l.ICEServers = append(l.ICEServers, Server{URLs: turn, Username: c.Username, Credential: c.Password})
		l.TTL = int(c.Expires.Sub(now) / time.Second)
	}
	return l
}

// ParseList reads a list of ICE servers a client receives, as hostile
// input: at most MaxListBytes, MaxServers servers of at most MaxURLs URLs
// each, every string at most MaxFieldBytes, every URL stun:, turn: or
// turns:. A list that breaks any of these is refused whole.
func ParseList(body []byte) (List, error) {
	if len(body) > MaxListBytes {
		return List{}, fmt.Errorf("%w: over %d bytes", ErrBadList, MaxListBytes)
	}
	var l List
	if err := json.Unmarshal(body, &l); err != nil {
		return List{}, fmt.Errorf("%w: %v", ErrBadList, err)
	}
	if len(l.ICEServers) > MaxServers {
		return List{}, fmt.Errorf("%w: %d servers, at most %d", ErrBadList, len(l.ICEServers), MaxServers)
	}
	if l.TTL < 0 {
		return List{}, fmt.Errorf("%w: ttl %d", ErrBadList, l.TTL)
	}
	for _, s := range l.ICEServers {
		if len(s.URLs) == 0 || len(s.URLs) > MaxURLs {
			return List{}, fmt.Errorf("%w: a server with %d URLs (1 to %d)", ErrBadList, len(s.URLs), MaxURLs)
		}
		if len(s.Username) > MaxFieldBytes || len(s.Credential) > MaxFieldBytes {
			return List{}, fmt.Errorf("%w: a credential over %d bytes", ErrBadList, MaxFieldBytes)
		}
		for _, u := range s.URLs {
			if len(u) > MaxFieldBytes {
				return List{}, fmt.Errorf("%w: a URL over %d bytes", ErrBadList, MaxFieldBytes)
			}
			if err := checkURL(u); err != nil {
				return List{}, fmt.Errorf("%w: %w", ErrBadList, err)
			}
		}
	}
	if l.ICEServers == nil {
		l.ICEServers = []Server{}
	}
	return l, nil
}

// splitHostPort splits "host", "host:port", "[v6]" or "[v6]:port" (a bare
// IPv6 address, with colons and no brackets, is all host). It does what
// net.SplitHostPort would without linking package net into the browser's
// build.
func splitHostPort(s string) (host, port string) {
	if rest, ok := strings.CutPrefix(s, "["); ok {
		h, after, ok := strings.Cut(rest, "]")
		if !ok {
			return "", ""
		}
		if after == "" {
			return h, ""
		}
		if p, ok := strings.CutPrefix(after, ":"); ok {
			return h, p
		}
		return "", ""
	}
	if strings.Count(s, ":") == 1 {
		h, p, _ := strings.Cut(s, ":")
		return h, p
	}
	return s, ""
}
