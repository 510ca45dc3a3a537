package agones

import (
	"context"
	"sync"
	"time"
)

// Lifecycle runs a match server's part of the Agones lifecycle. Build it
// with NewLifecycle and call Run once the server listens.
type Lifecycle struct {
	c       *Client
	players func() int

	mu        sync.Mutex
	gs        GameServer
	allocated bool
	ended     bool
}

// NewLifecycle returns a Lifecycle that reports through c and reads the
// number of connected players from players.
func NewLifecycle(c *Client, players func() int) *Lifecycle {
	return &Lifecycle{c: c, players: players}
}

// Endpoint returns the GameServer's public address and the public port
// named one of names (the first port if names is empty), as last seen;
// ok is false until both are known.
func (l *Lifecycle) Endpoint(names ...string) (address string, port int, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range l.gs.Status.Ports {
		if len(names) == 0 {
			port = p.Port
			break
		}
		for _, n := range names {
			if p.Name == n {
				port = p.Port
				break
			}
		}
		if port != 0 {
			break
		}
	}
	address = l.gs.Status.Address
	return address, port, address != "" && port != 0
}

// Allocated reports whether the GameServer has been seen Allocated, and
// its labels as last seen.
func (l *Lifecycle) Allocated() (bool, map[string]string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.allocated, l.gs.ObjectMeta.Labels
}

// MatchOver tells the lifecycle that the match has ended: once allocated
// and empty, the GameServer shuts down even if no player ever connected.
func (l *Lifecycle) MatchOver() {
	l.mu.Lock()
	l.ended = true
	l.mu.Unlock()
}

func (l *Lifecycle) observe(gs GameServer) {
	l.mu.Lock()
	l.gs = gs
	if gs.Status.State == StateAllocated {
		l.allocated = true
	}
	l.mu.Unlock()
}

// Run marks the GameServer Ready (retrying until the start deadline; its
// error wraps ErrSidecarUnavailable if the sidecar never answered), then
// until ctx is done: pings Health every HealthPeriod, watches the
// GameServer, reports the player count when it changes, and requests
// Shutdown once allocated and empty after players have been there or after
// MatchOver. Failures after Ready are logged and retried; they never stop
// the match. Run returns nil when ctx is done after a successful Ready.
func (l *Lifecycle) Run(ctx context.Context) error {
	cfg := l.c.cfg
	log := cfg.Logger
	if err := l.c.Ready(ctx); err != nil {
		return err
	}
	log.Info("agones: GameServer ready")
	if gs, err := l.c.GameServer(ctx); err == nil {
		l.observe(gs)
	} else {
		log.Warn("agones: reading the GameServer", "err", err)
	}

	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() {
		t := time.NewTicker(cfg.HealthPeriod)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := l.c.Health(ctx); err != nil && ctx.Err() == nil {
					log.Warn("agones: health ping failed", "err", err)
				}
			}
		}
	})
	wg.Go(func() {
		wait := cfg.RetryMin
		for {
			seen := false
			err := l.c.Watch(ctx, func(gs GameServer) { seen = true; l.observe(gs) })
			if ctx.Err() != nil {
				return
			}
			if seen {
				wait = cfg.RetryMin
			}
			log.Warn("agones: GameServer watch ended, retrying", "backoff", wait, "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			wait = min(wait*2, cfg.RetryMax)
		}
	})

	reported, hadPlayers, shutdown := -1, false, false
	t := time.NewTicker(cfg.PlayerPeriod)
	defer t.Stop()
	for {
		n := l.players()
		if n > 0 {
			hadPlayers = true
		}
		if n != reported {
			if err := l.c.SetPlayers(ctx, n); err == nil {
				reported = n
			} else if ctx.Err() == nil {
				log.Warn("agones: reporting players", "players", n, "err", err)
			}
		}
		l.mu.Lock()
		done := l.allocated && n == 0 && (hadPlayers || l.ended)
		l.mu.Unlock()
		if done && !shutdown {
			if err := l.c.Shutdown(ctx); err == nil {
				shutdown = true
				log.Info("agones: match over and empty, shutdown requested")
			} else if ctx.Err() == nil {
				log.Warn("agones: shutdown request failed", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
