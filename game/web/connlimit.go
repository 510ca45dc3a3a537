package web

import (
	"net"
	"sync"
	"sync/atomic"

	"github.com/sightline-game/sightline/netcode/ratelimit"
)

// The bounds on a public HTTP server's open connections (LimitConns). An
// idle connection costs the server about 20 KB (its goroutine and
// buffers): unbounded, 10,000 from one address took 200 MB.
const (
	// MaxConnsPerSubscriber bounds the open connections of one subscriber
	// (an IPv4 address, an IPv6 /64): room for a few dozen players behind
	// one NAT loading the page at once (a browser opens up to six).
	MaxConnsPerSubscriber = 64
	// MaxConns bounds them all (about 80 MB at most).
	MaxConns = 4096
)

// ConnLimiter is a listener that bounds open connections, per subscriber
// and in all: one beyond either bound is closed as soon as it is accepted,
// before the HTTP server reads a byte or spends a goroutine on it.
type ConnLimiter struct {
	net.Listener
	perSubscriber, total int

	mu   sync.Mutex
	open map[string]int // by subscriber
	all  int

	refused atomic.Uint64
}

// LimitConns returns ln bounded to perSubscriber open connections per
// subscriber and total in all (MaxConnsPerSubscriber and MaxConns when 0).
func LimitConns(ln net.Listener, perSubscriber, total int) *ConnLimiter {
	if perSubscriber <= 0 {
		perSubscriber = MaxConnsPerSubscriber
	}
	if total <= 0 {
		total = MaxConns
	}
	return &ConnLimiter{Listener: ln, perSubscriber: perSubscriber, total: total, open: make(map[string]int)}
}

// Accept returns the next connection within the bounds, closing those
// beyond them.
func (l *ConnLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := subscriberOfConn(c)
		l.mu.Lock()
		if l.all >= l.total || l.open[key] >= l.perSubscriber {
			l.mu.Unlock()
			l.refused.Add(1)
			c.Close()
			continue
		}
		l.all++
		l.open[key]++
		l.mu.Unlock()
		return &limitedConn{Conn: c, l: l, key: key}, nil
	}
}

// Open returns the connections open now, in all.
func (l *ConnLimiter) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.all
}

// Refused returns the connections closed at once for a bound.
func (l *ConnLimiter) Refused() uint64 { return l.refused.Load() }

func (l *ConnLimiter) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all--
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

func subscriberOfConn(c net.Conn) string {
	if ta, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return ratelimit.SubscriberOf(ta.AddrPort().Addr())
	}
	return c.RemoteAddr().String()
}

// limitedConn gives its place back when closed, once.
type limitedConn struct {
	net.Conn
	l    *ConnLimiter
	key  string
	once sync.Once
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.key) })
	return err
}

// CloseWrite half-closes the connection where the one beneath can (a TCP
// connection), as the HTTP server does before it closes one.
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
