package lobby

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/client"
)

// Ping is the latest round trip measured to a match.
type Ping struct {
	RTT time.Duration // of the latest answer
	Err error         // set when the latest try got no good answer
	At  time.Time     // when the latest try ended; zero: none yet
}

// String is how the menu shows it: "—" before the first try, "12 ms", or
// "no answer".
func (p Ping) String() string {
	switch {
	case p.At.IsZero():
		return "—"
	case p.Err != nil:
		return "no answer"
	case p.RTT < time.Millisecond:
		return "<1 ms"
	}
	return fmt.Sprintf("%d ms", p.RTT.Milliseconds())
}

// HealthPath is what a match server answers cheaply: the pinger's target.
const HealthPath = "/healthz"

// Pinger measures the round trip of an HTTP GET of URL+HealthPath to each
// match it is told to watch, every Every, in its own goroutine (Run), and
// after each answer asks the server for the matches it hosts (GET
// /matches, see List). Its methods may be called from any goroutine.
type Pinger struct {
	// Every is the time between one match's pings (default 2 s).
	Every time.Duration
	// Timeout bounds one ping (default 1.5 s).
	Timeout time.Duration
	// Client makes the requests (default: one without proxies, since
	// the matches are on the LAN).
	Client *http.Client

	mu    sync.Mutex
	watch map[string]*pingState // by URL
}

type pingState struct {
	last Ping
	list []client.MatchInfo // the server's matches as last listed; nil: none listed
	next time.Time          // when to ping again
	busy bool
}

// Watch sets the URLs to ping; matches no longer listed are forgotten.
// A URL new to the pinger is pinged at once.
func (p *Pinger) Watch(urls []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.watch == nil {
		p.watch = make(map[string]*pingState)
	}
	keep := make(map[string]bool, len(urls))
	for _, u := range urls {
		keep[u] = true
		if p.watch[u] == nil {
			p.watch[u] = &pingState{}
		}
	}
	for u := range p.watch {
		if !keep[u] {
			delete(p.watch, u)
		}
	}
}

// Get returns the latest ping of url, and whether it is watched.
func (p *Pinger) Get(url string) (Ping, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.watch[url]
	if !ok {
		return Ping{}, false
	}
	return s.last, true
}

// List returns the matches the server at url hosts, as it last listed them
// (nil if it lists none, or has not answered yet). The slice is the
// pinger's own: do not change it.
func (p *Pinger) List(url string) []client.MatchInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := p.watch[url]; ok {
		return s.list
	}
	return nil
}

// Run pings the watched matches until ctx ends.
func (p *Pinger) Run(ctx context.Context) {
	every, timeout, hc := p.Every, p.Timeout, p.Client
	if every <= 0 {
		every = 2 * time.Second
	}
	if timeout <= 0 {
		timeout = 1500 * time.Millisecond
	}
	if hc == nil {
		tr := &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 1, IdleConnTimeout: 2 * every}
		defer tr.CloseIdleConnections()
		hc = &http.Client{Transport: tr}
	}
	t := time.NewTicker(min(every/10, 100*time.Millisecond))
	defer t.Stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		now := time.Now()
		p.mu.Lock()
		for u, s := range p.watch {
			if s.busy || now.Before(s.next) {
				continue
			}
			s.busy = true
			wg.Go(func() {
				rtt, err := ping(ctx, hc, u, timeout)
				done := time.Now()
				var list []client.MatchInfo
				if err == nil {
					// A server that lists none (404), or fails to, gets one row.
					lctx, cancel := context.WithTimeout(ctx, timeout)
					list, _ = client.ListMatchesWith(lctx, hc, u)
					cancel()
				}
				p.mu.Lock()
				defer p.mu.Unlock()
				s.busy, s.next = false, done.Add(every)
				if ctx.Err() == nil {
					s.last = Ping{RTT: rtt, Err: err, At: done}
					s.list = list
				}
			})
		}
		p.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// ping returns the round trip of one GET of url+HealthPath.
func ping(ctx context.Context, client *http.Client, url string, timeout time.Duration) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(url, "/")+HealthPath, nil)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<10))
	resp.Body.Close()
	rtt := time.Since(start)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("HTTP %s", resp.Status)
	}
	return rtt, nil
}
