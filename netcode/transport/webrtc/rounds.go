//go:build !js

package webrtc

import (
	"net"
	"net/netip"
	"sync"
	"time"
)

// roundConn is the server's shared UDP socket read in rounds. Every
// datagram a peer sends wakes a chain of goroutines in pion (the UDP mux,
// the ICE candidate, the DTLS and SCTP readers): at a few datagrams per
// player per tick, waking them one datagram at a time costs the server far
// more than the game does. A round reads everything queued on the socket at
// once (recvmmsg where there is one) and passes it on as a burst, so the
// process wakes a few times a tick instead of a few times a player a tick.
//
// Rounds start at most interval apart, when ReadNow is called (a game calls
// it shortly before each tick, so that the tick sees the inputs that came
// since the last), and at once whenever hurry reports that a session is
// negotiating (its ICE and DTLS round trips are not to wait). A round that
// finds the socket empty takes the next datagram as it comes.
// roundReadBuffer is the receive buffer a socket read in rounds asks for.
const roundReadBuffer = 4 << 20

type roundConn struct {
	*net.UDPConn
	interval time.Duration
	hurry    func() bool

	wake      chan struct{} // capacity 1: ReadNow was called
	done      chan struct{} // closed by Close
	closeOnce sync.Once

	// Used only by the one reading goroutine (the UDP mux's).
	timer   *time.Timer
	roundAt time.Time // when the current round began
	batch   datagramBatch
	next    int  // the next datagram of batch to hand out
	full    bool // the last fill took a whole batch: more may be queued
}

func newRoundConn(c *net.UDPConn, interval time.Duration, hurry func() bool) (*roundConn, error) {
	rc := &roundConn{
		UDPConn:  c,
		interval: interval,
		hurry:    hurry,
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
		timer:    time.NewTimer(time.Hour),
	}
	rc.timer.Stop()
	// A round's datagrams wait in the kernel's buffer: ask for room for
	// many (the kernel grants at most net.core.rmem_max).
	_ = c.SetReadBuffer(roundReadBuffer)
	if err := rc.batch.init(c); err != nil {
		return nil, err
	}
	return rc, nil
}

// ReadNow starts a round now, if none is under way.
func (c *roundConn) ReadNow() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// ReadFromAddrPort hands out the current round's datagrams one by one
// (the UDP mux's reading loop calls it), waiting for the next round when
// they are all handed out.
func (c *roundConn) ReadFromAddrPort(b []byte) (int, netip.AddrPort, error) {
	if c.next == c.batch.n {
		if !c.full {
			c.waitRound()
		}
		if err := c.batch.fill(); err != nil {
			return 0, netip.AddrPort{}, err
		}
		c.next = 0
		c.full = c.batch.n == len(c.batch.bufs)
	}
	d := c.next
	c.next++
	return copy(b, c.batch.data(d)), c.batch.from(d), nil
}

// waitRound returns when the next round is due.
func (c *roundConn) waitRound() {
	if c.hurry() {
		c.roundAt = time.Now()
		return
	}
	if wait := time.Until(c.roundAt.Add(c.interval)); wait > 0 {
		c.timer.Reset(wait)
		select {
		case <-c.timer.C:
		case <-c.wake:
			c.timer.Stop()
		case <-c.done:
			c.timer.Stop()
		}
	}
	c.roundAt = time.Now()
}

// ReadFrom is ReadFromAddrPort for callers that want a net.Addr.
func (c *roundConn) ReadFrom(b []byte) (int, net.Addr, error) {
	n, from, err := c.ReadFromAddrPort(b)
	if err != nil {
		return 0, nil, err
	}
	return n, net.UDPAddrFromAddrPort(from), nil
}

// WriteToAddrPort sends at once: only reading goes in rounds.
func (c *roundConn) WriteToAddrPort(b []byte, to netip.AddrPort) (int, error) {
	return c.WriteToUDPAddrPort(b, to)
}

// Close ends any wait for a round and closes the socket.
func (c *roundConn) Close() error {
	c.closeOnce.Do(func() { close(c.done) })
	return c.UDPConn.Close()
}
