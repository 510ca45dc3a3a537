package main

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/game/server/metrics"
	"github.com/sightline-game/sightline/netcode/jointoken"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// tokenChecker returns the checker of -token-key's join tokens, or nil
// without -token-key: anyone joins.
func tokenChecker(log *slog.Logger, o options) (*jointoken.Checker, error) {
	if o.tokenKey == "" {
		return nil, nil
	}
	key, err := jointoken.LoadKey(o.tokenKey)
	if err != nil {
		return nil, err
	}
	server := o.tokenServer
	if server == "" {
		server = ownName(o)
	}
	if server == "" {
		log.Warn("join tokens: this server does not know its own name (-token-server, -public-ip or -addr with a host): tokens that name a server are refused, only -server any tokens join")
	}
	log.Info("join tokens required", "key_file", o.tokenKey, "server", server)
	return jointoken.NewChecker(jointoken.CheckerConfig{Key: key, Server: server}), nil
}

// ownName returns the host:port this server's join tokens name by default:
// its first public address (-public-ip) with its HTTP port, or -addr when
// it names a host; "" if neither does.
func ownName(o options) string {
	host, port, err := net.SplitHostPort(o.addr)
	if err != nil {
		return ""
	}
	if len(o.publicIPs) > 0 {
		return net.JoinHostPort(o.publicIPs[0], port)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		return ""
	}
	return o.addr
}

// tokenError is a token check's error as the WebRTC server's Admit returns
// it, wrapping the sentinel of its status.
func tokenError(err error) error {
	switch jointoken.Status(err) {
	case http.StatusUnauthorized:
		return fmt.Errorf("%w: %w", err, webrtc.ErrUnauthorized)
	case http.StatusForbidden:
		return fmt.Errorf("%w: %w", err, webrtc.ErrForbidden)
	}
	return err
}

// admitter returns the WebRTC server's Admit for -token-key: every offer
// must carry a join token (Authorization: Bearer) that opens with the key,
// has not expired, names this server (or any) and the match asked for (or
// any), and was not used before (nor is held by a join under way: settler
// spends or frees it). The player then joins the token's match
// under the token's name. Without a checker it returns nil: anyone joins.
func admitter(ck *jointoken.Checker, met *metrics.Metrics) func(*http.Request) (*http.Request, any, error) {
	if ck == nil {
		return nil
	}
	return func(r *http.Request) (*http.Request, any, error) {
		asked := r.URL.Query().Get(protocol.MatchQuery)
		c, err := ck.Reserve(jointoken.FromRequest(r), asked)
		if err != nil {
			met.RefusedToken(jointoken.Reason(err))
			return nil, nil, tokenError(err)
		}
		if c.Match != asked {
			r = r.Clone(r.Context())
			q := r.URL.Query()
			q.Set(protocol.MatchQuery, c.Match)
			r.URL.RawQuery = q.Encode()
		}
		return r, server.Admitted{Name: c.Name, Player: c.Player, TokenID: c.ID}, nil
	}
}

// settler returns the WebRTC server's Settle for -token-key: a token held
// by admitter is spent once its player has joined, and freed when the join
// failed after the token's check (the match was full, the offer broken,
// the peer never connected), so that the player's retry gets in. Without
// a checker it returns nil.
func settler(ck *jointoken.Checker) func(admission any, joined bool) {
	if ck == nil {
		return nil
	}
	return func(admission any, joined bool) {
		a, ok := admission.(server.Admitted)
		switch {
		case !ok:
		case joined:
			ck.Commit(a.TokenID)
		default:
			ck.Release(a.TokenID)
		}
	}
}
