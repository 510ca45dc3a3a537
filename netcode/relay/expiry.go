package relay

import "time"

// expiryInterval is how often the relay closes the allocations whose
// credential expired.
const expiryInterval = time.Second

// expire closes, every expiryInterval until the relay closes, the
// allocations whose credential expired by Config.now; and it reports the
// TURN library's log lines held back in the last interval, so that a
// flood's count is logged once a second although no line passes after
// it.
func (s *Server) expire() {
	s.every(expiryInterval, func() {
		s.closeExpired(s.cfg.now())
		s.logs.flush()
	})
}

// every calls f every interval until the relay closes; it is one of the
// relay's sweepers.
func (s *Server) every(interval time.Duration, f func()) {
	defer s.sweeper.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			f()
		}
	}
}

// closeExpired closes the allocations whose credential expired by now:
// an allocation lives no longer than the credential it was made with.
func (s *Server) closeExpired(now time.Time) {
	s.connsMu.Lock()
	var expired []*relayConn
	for c := range s.conns {
		if c.user.expires <= now.Unix() {
			expired = append(expired, c)
		}
	}
	s.connsMu.Unlock()
	for _, c := range expired {
		s.allocationsExpired.Add(1)
		s.log.Debug("relay allocation's credential expired", "username", c.user.name, "relayed", c.LocalAddr())
		c.Close()
	}
}
