//go:build !js

package webrtc

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// offerLimiter rate-limits offers per client key with one token bucket per
// client, in a table of at most max entries.
type offerLimiter struct {
	rate  rate.Limit
	burst int
	max   int
	// idle is how long a bucket takes to refill completely: a bucket unused
	// that long is the same as a new one, so its entry can be dropped.
	idle time.Duration

	mu        sync.Mutex
	clients   map[string]*clientBucket
	lastSweep time.Time
}

type clientBucket struct {
	lim  *rate.Limiter
	last time.Time // last offer seen, allowed or not
}

func newOfferLimiter(r rate.Limit, burst, maxClients int) *offerLimiter {
	idle := time.Second
	if r != rate.Inf && r > 0 {
		idle = max(time.Duration(float64(burst)/float64(r)*float64(time.Second)), time.Second)
	}
	return &offerLimiter{
		rate:    r,
		burst:   burst,
		max:     maxClients,
		idle:    idle,
		clients: make(map[string]*clientBucket),
	}
}

// allow takes a token from key's bucket. When it is empty, it returns false
// and how long until a token is available.
func (l *offerLimiter) allow(key string, now time.Time) (bool, time.Duration) {
	if l.rate == rate.Inf {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.clients[key]
	if b == nil {
		if len(l.clients) >= l.max || now.Sub(l.lastSweep) >= l.idle {
			l.sweep(now)
		}
		if len(l.clients) >= l.max {
			l.evictOldest()
		}
		b = &clientBucket{lim: rate.NewLimiter(l.rate, l.burst)}
		l.clients[key] = b
	}
	b.last = now
	r := b.lim.ReserveN(now, 1)
	if !r.OK() {
		return false, l.idle
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// sweep drops the buckets idle long enough to have refilled.
func (l *offerLimiter) sweep(now time.Time) {
	l.lastSweep = now
	for k, b := range l.clients {
		if now.Sub(b.last) >= l.idle {
			delete(l.clients, k)
		}
	}
}

// evictOldest drops the least recently used bucket (the table is full of
// active clients: the evicted one gets a fresh bucket if it comes back).
func (l *offerLimiter) evictOldest() {
	var oldest string
	var at time.Time
	first := true
	for k, b := range l.clients {
		if first || b.last.Before(at) {
			oldest, at, first = k, b.last, false
		}
	}
	if !first {
		delete(l.clients, oldest)
	}
}

// size returns how many client buckets the table holds.
func (l *offerLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.clients)
}

// RemoteIP is the default [ServerConfig.ClientKey]: the IP address of
// r.RemoteAddr, the TCP peer of the request. It trusts no header.
func RemoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// retryAfter formats d as a Retry-After value: whole seconds, at least 1.
func retryAfter(d time.Duration) string {
	s := int64(math.Ceil(d.Seconds()))
	if s < 1 {
		s = 1
	}
	return strconv.FormatInt(s, 10)
}
