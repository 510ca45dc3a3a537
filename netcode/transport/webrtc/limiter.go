//go:build !js

package webrtc

import (
	"net/http"
	"time"

	"github.com/sightline-game/sightline/netcode/ratelimit"
	"golang.org/x/time/rate"
)

// offerLimiter rate-limits offers per client key (package ratelimit).
type offerLimiter = ratelimit.Keyed

func newOfferLimiter(r rate.Limit, burst, maxClients int) *offerLimiter {
	return ratelimit.New(r, burst, maxClients)
}

// RemoteIP is the default [ServerConfig.ClientKey]: the IP address of
// r.RemoteAddr, the TCP peer of the request. It trusts no header.
func RemoteIP(r *http.Request) string { return ratelimit.RemoteIP(r) }

// retryAfter formats d as a Retry-After value: whole seconds, at least 1.
func retryAfter(d time.Duration) string { return ratelimit.RetryAfter(d) }
