// Package ratelimit limits how often each client may ask: one token
// bucket per client key, in a bounded table, and the keys of HTTP clients
// (their address, an IPv6 address by its /64, the block one subscriber
// holds).
package ratelimit

import (
	"context"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Keyed rate-limits requests per client key with one token bucket per
// client, in a table of at most max entries.
type Keyed struct {
	rate  rate.Limit
	burst int
	max   int
	// idle is how long a bucket takes to refill completely: a bucket unused
	// that long is the same as a new one, so its entry can be dropped.
	idle time.Duration

	mu        sync.Mutex
	clients   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	last time.Time // last offer seen, allowed or not
}

// New returns a limiter of r requests a second with bursts of burst per
// key, remembering at most maxClients keys (the least recently seen is
// forgotten first; a bucket idle long enough to have refilled is dropped,
// since a new one is the same). r rate.Inf allows everything.
func New(r rate.Limit, burst, maxClients int) *Keyed {
	idle := time.Second
	if r != rate.Inf && r > 0 {
		idle = max(time.Duration(float64(burst)/float64(r)*float64(time.Second)), time.Second)
	}
	return &Keyed{
		rate:    r,
		burst:   burst,
		max:     maxClients,
		idle:    idle,
		clients: make(map[string]*bucket),
	}
}

// WaitN waits until key's bucket holds n tokens and takes them, or
// returns ctx's error (or an error at once for n over the burst): a
// limit on bytes, n being the bytes about to be written.
func (l *Keyed) WaitN(ctx context.Context, key string, n int) error {
	if l.rate == rate.Inf {
		return nil
	}
	now := time.Now()
	l.mu.Lock()
	b := l.bucket(key, now)
	l.mu.Unlock()
	return b.lim.WaitN(ctx, n)
}

// bucket returns key's bucket, made if need be, marked used at now; l.mu
// is held.
func (l *Keyed) bucket(key string, now time.Time) *bucket {
	b := l.clients[key]
	if b == nil {
		if len(l.clients) >= l.max || now.Sub(l.lastSweep) >= l.idle {
			l.sweep(now)
		}
		if len(l.clients) >= l.max {
			l.evictOldest()
		}
		b = &bucket{lim: rate.NewLimiter(l.rate, l.burst)}
		l.clients[key] = b
	}
	b.last = now
	return b
}

// Allow takes a token from key's bucket. When it is empty, it returns false
// and how long until a token is available.
func (l *Keyed) Allow(key string, now time.Time) (bool, time.Duration) {
	if l.rate == rate.Inf {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key, now)
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
func (l *Keyed) sweep(now time.Time) {
	l.lastSweep = now
	for k, b := range l.clients {
		if now.Sub(b.last) >= l.idle {
			delete(l.clients, k)
		}
	}
}

// evictOldest drops the least recently used bucket (the table is full of
// active clients: the evicted one gets a fresh bucket if it comes back).
func (l *Keyed) evictOldest() {
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

// Size returns how many client buckets the table holds.
func (l *Keyed) Size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.clients)
}

// RemoteIP is the IP address of r.RemoteAddr, the TCP peer of the
// request. It trusts no header.
func RemoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// Subscriber is the key of the client at r.RemoteAddr: its IPv4 address,
// or the /64 of its IPv6 address, which a single subscriber usually holds
// whole (so that one subscriber cannot take a fresh bucket per address).
func Subscriber(r *http.Request) string {
	ip := RemoteIP(r)
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	return SubscriberOf(a)
}

// SubscriberOf is the key of the client at address a: a itself for IPv4
// (an IPv4-mapped IPv6 address counting as IPv4), its /64 for IPv6.
func SubscriberOf(a netip.Addr) string {
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

// SubscriberAddr is SubscriberOf as an address, for keys that must not
// allocate: a itself for IPv4 (unmapped), the first address of its /64
// for IPv6 (without its zone).
func SubscriberAddr(a netip.Addr) netip.Addr {
	a = a.Unmap()
	if a.Is4() {
		return a
	}
	p, _ := a.Prefix(64)
	return p.Addr()
}

// RetryAfter formats d as a Retry-After value: whole seconds, at least 1.
func RetryAfter(d time.Duration) string {
	s := int64(math.Ceil(d.Seconds()))
	if s < 1 {
		s = 1
	}
	return strconv.FormatInt(s, 10)
}
