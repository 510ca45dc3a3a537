package web

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/iceservers"
	"github.com/sightline-game/sightline/netcode/jointoken"
	"github.com/sightline-game/sightline/netcode/ratelimit"
	"golang.org/x/time/rate"
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

// The defaults of ICEConfig's zero fields.
const (
	// DefaultICERate and DefaultICEBurst limit GET /ice per client
	// address: a second apart, and eight at once (a household joining
	// together from behind one router).
	DefaultICERate  rate.Limit = 1
	DefaultICEBurst            = 8
	// DefaultICEWindow is the window a credential's minting time is
	// rounded down to (iceservers.Handout.Window).
	DefaultICEWindow = 5 * time.Minute
	// maxICEClients bounds the limiter's table of client addresses.
	maxICEClients = 4096
)

// ICEConfig configures [ICEServers].
type ICEConfig struct {
	// Logger receives the handler's records (nil: slog.Default()).
	Logger *slog.Logger
	// Handout mints the credentials: its Peers scope them (the server's
	// public addresses), its Window is DefaultICEWindow when zero.
	Handout *iceservers.Handout
	// Relayed, if set, returns the relay servers a rendezvous gave a
	// server without a relay of its own (nil until then).
	Relayed func() *json.RawMessage
	// Tokens, if set, admits only a join token the offer would admit
	// (checked, not spent: the offer that follows spends it), and derives
	// each credential's id from the token.
	Tokens *jointoken.Checker
	// Rate and Burst limit the requests of one client address (ClientKey)
	// (defaults DefaultICERate and DefaultICEBurst); beyond: 429 with
	// Retry-After.
	Rate  rate.Limit
	Burst int
	// ClientKey names the address a request counts against (nil:
	// ratelimit.Subscriber, an IPv6 address by its /64).
	ClientKey func(*http.Request) string
}

// ICEServers serves GET /ice (protocol.ICEServersPath): the handout, with
// one credential per join rather than per request. Its id is derived from
// the join token when tokens are on, else from the client's connection
// (its address and port: players behind one router each get their own, a
// relay capping one credential's allocations), and its minting time is
// rounded down to the handout's Window, so that a joiner asking again gets
// the credential it holds. Each client address is rate-limited.
//
// The credentials are scoped to the handout's Peers, the server's public
// addresses; a server that knows none mints unscoped credentials, and
// warns that relayed players then reach it only where the relay's
// operator allows.
//
// A server without a relay of its own (HasTURN false) hands out beside
// its STUN servers those a rendezvous gave it (Relayed).
func ICEServers(cfg ICEConfig) http.Handler {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	h := *cfg.Handout
	if h.Window <= 0 {
		h.Window = DefaultICEWindow
	}
	if cfg.Rate <= 0 {
		cfg.Rate = DefaultICERate
	}
	if cfg.Burst <= 0 {
		cfg.Burst = DefaultICEBurst
	}
	if cfg.ClientKey == nil {
		cfg.ClientKey = ratelimit.Subscriber
	}
	if h.HasTURN() && len(h.Peers) == 0 {
		log.Warn("relay credentials unscoped: this server knows no public address (-public-ip, or -stun to learn it); relayed players will only reach it where the relay allows (its -allow-peers)")
	}
	lim := ratelimit.New(cfg.Rate, cfg.Burst, maxICEClients)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ok, wait := lim.Allow(cfg.ClientKey(r), time.Now()); !ok {
			w.Header().Set("Retry-After", ratelimit.RetryAfter(wait))
			http.Error(w, "too many requests", http.StatusTooManyRequests)
			return
		}
		key := "addr " + r.RemoteAddr
		if cfg.Tokens != nil {
			claims, err := cfg.Tokens.Verify(jointoken.FromRequest(r), r.URL.Query().Get(protocol.MatchQuery))
			if err != nil {
				http.Error(w, err.Error(), jointoken.Status(err))
				return
			}
			key = "token " + hex.EncodeToString(claims.ID[:])
		}
		list := h.List(iceservers.DeriveID(h.Secret, key), time.Now())
		if cfg.Relayed != nil && !h.HasTURN() {
			if r := cfg.Relayed(); r != nil {
				var servers []iceservers.Server
				if json.Unmarshal(*r, &servers) == nil {
					list.ICEServers = append(list.ICEServers, servers...)
				}
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

// PublicAddrs parses a server's public addresses (the -public-ip flag's
// and the one STUN named) for Handout.Peers, dropping what is no IP.
func PublicAddrs(ips ...string) []netip.Addr {
	var out []netip.Addr
	for _, s := range ips {
		a, err := netip.ParseAddr(s)
		if err != nil || slices.Contains(out, a.Unmap()) {
			continue
		}
		out = append(out, a.Unmap())
	}
	return out
}
