//go:build !js

package webrtc

import (
	"net"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// roundConn is the server's shared UDP socket read in rounds. Every
// datagram a peer sends wakes a chain of goroutines in pion (the UDP mux,
// the ICE candidate, the DTLS and SCTP readers): at a few datagrams per
// player per tick, waking them one datagram at a time costs the server far
// more than the game does. A round reads everything queued on the socket at
// once (recvmmsg where there is one) and passes it on as a burst, so the
// process wakes once a tick instead of a few times a player a tick.
//
// Rounds start at most interval apart, when ReadNow is called (a game calls
// it at each tick, through settle, so that the tick sees the inputs that
// came since the last), a quarter of a tick before each tick (so that the
// tick's own round is small), and at most hurryInterval apart whenever
// hurry reports that a session is negotiating (its ICE and DTLS round trips
// are not to wait long): then a round that finds the socket empty takes
// the next datagram as it comes.
//
// On Linux the socket is also out of the Go runtime's network poller
// (roundSocket): a datagram that comes between rounds then wakes nothing at
// all, where the poller would wake a thread for each one only to find no
// goroutine waiting for it.
type roundConn struct {
	sock     *roundSocket
	peers    *knownPeers
	count    *intakeCounters
	local    *net.UDPAddr
	interval time.Duration
	hurry    func() bool

	wake      chan struct{} // capacity 1: ReadNow was called
	done      chan struct{} // closed by Close
	closeOnce sync.Once

	// What settle watches: the reading goroutine's state (reader*), the
	// datagrams it has handed out and those written.
	state   atomic.Int32
	rounds  atomic.Uint64 // rounds read
	handed  atomic.Uint64
	written atomic.Uint64

	// The settle under way or the last, which callers share (settle).
	settleMu    sync.Mutex
	settleEnded sync.Cond // on settleMu: settleGen moved on
	settling    bool
	settleAt    time.Time // when the settle under way or the last began
	settleGen   uint64    // settles ended

	// early is when the round before the next tick is due, as time since
	// base (0: none); lastDue and lastPeriod are the due of the last
	// settle and its time since the one before, which the ticks' period is
	// learnt from. See settle.
	base       time.Time
	early      atomic.Int64
	lastDue    time.Time     // on settleMu
	lastPeriod time.Duration // on settleMu

	// Used only by the one reading goroutine (the UDP mux's).
	epochAt time.Time // when knownPeers' epoch began
	timer   *time.Timer
	roundAt time.Time // when the current round began
	n       int       // datagrams the last fill took
	next    int       // the next of them to hand out
	full    bool      // the last fill took a whole batch: more may be queued
}

// DefaultReceiveBuffer is the receive buffer a socket read in rounds asks
// for by default (ServerConfig.ReceiveBuffer).
const DefaultReceiveBuffer = 4 << 20

// knownPeerEpoch is how long one epoch of knownPeers lasts.
const knownPeerEpoch = 5 * time.Second

// hurryInterval is the most time between two rounds while a session
// negotiates (and a round that finds the socket empty then waits for the
// next datagram).
const hurryInterval = 2 * time.Millisecond

// A round of its own starts a 1/earlyRoundLead of a tick before each tick
// is due (settle), for ticks at most maxTickPeriod apart.
const (
	earlyRoundLead = 4
	maxTickPeriod  = time.Second
)

// The reading goroutine's states, for settle.
const (
	readerBusy          = iota // handing out a round's datagrams
	readerWaitingRound         // all handed out, waiting for the next round
	readerWaitingSocket        // waiting on an empty socket for the next datagram
)

// newRoundConn takes c over: from here on c is the round conn's to use and
// close.
func newRoundConn(c *net.UDPConn, interval time.Duration, hurry func() bool, readBuffer int) (*roundConn, error) {
	local, _ := c.LocalAddr().(*net.UDPAddr)
	// A round's datagrams wait in the kernel's buffer: ask for room for
	// many (the kernel grants at most net.core.rmem_max).
	_ = c.SetReadBuffer(readBuffer)
	peers, count := newKnownPeers(), new(intakeCounters)
	sock, err := openRoundSocket(c, newIntake(peers, count), interval)
	if err != nil {
		return nil, err
	}
	rc := &roundConn{
		sock:     sock,
		peers:    peers,
		count:    count,
		local:    local,
		interval: interval,
		hurry:    hurry,
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
		timer:    time.NewTimer(time.Hour),
	}
	rc.timer.Stop()
	rc.settleEnded.L = &rc.settleMu
	rc.base = time.Now()
	rc.epochAt = rc.base
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
	for c.next == c.n {
		if !c.full {
			c.state.Store(readerWaitingRound)
			if !c.waitRound() {
				return 0, netip.AddrPort{}, net.ErrClosed
			}
		}
		c.state.Store(readerBusy)
		n, err := c.sock.fill(c.hurry, c.waitingSocket)
		c.state.Store(readerBusy)
		if err != nil {
			return 0, netip.AddrPort{}, err
		}
		c.rounds.Add(1)
		c.n, c.next, c.full = n, 0, n == batchSlots
	}
	d := c.next
	c.next++
	c.handed.Add(1)
	return copy(b, c.sock.data(d)), c.sock.from(d), nil
}

// waitingSocket records that the reader waits on an empty socket for the
// next datagram (which it does only while a session negotiates, or where
// the socket cannot be read without waiting), or no longer does.
func (c *roundConn) waitingSocket(waiting bool) {
	if waiting {
		c.state.Store(readerWaitingSocket)
	} else {
		c.state.Store(readerBusy)
	}
}

// waitRound returns when the next round is due, false once closed.
func (c *roundConn) waitRound() bool {
	next := c.roundAt.Add(c.interval)
	if c.hurry() {
		// A session negotiates: its ICE and DTLS round trips wait at most
		// hurryInterval for a round, and everyone's datagrams still come
		// in rounds.
		next = c.roundAt.Add(hurryInterval)
	}
	if early := c.early.Load(); early != 0 {
		if at := c.base.Add(time.Duration(early)); at.After(c.roundAt) && at.Before(next) {
			next = at
		}
	}
	for {
		// Until the round, the socket is drained as often as its traffic
		// needs (drainPace).
		at, drain := next, false
		if d := c.sock.nextDrain(); !d.IsZero() && d.Before(next) {
			at, drain = d, true
		}
		if wait := time.Until(at); wait > 0 {
			c.timer.Reset(wait)
			select {
			case <-c.timer.C:
			case <-c.wake:
				c.timer.Stop()
				drain = false
			case <-c.done:
				c.timer.Stop()
				return false
			}
		} else if drain {
			// A drain already due: a round called for meanwhile comes
			// first.
			select {
			case <-c.wake:
				drain = false
			case <-c.done:
				return false
			default:
			}
		}
		if !drain {
			break
		}
		if err := c.sock.drain(); err != nil {
			return false
		}
	}
	c.roundAt = time.Now()
	if c.roundAt.Sub(c.epochAt) >= knownPeerEpoch {
		c.epochAt = c.roundAt
		c.peers.nextEpoch()
	}
	return c.open()
}

func (c *roundConn) open() bool {
	select {
	case <-c.done:
		return false
	default:
		return true
	}
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
	c.written.Add(1)
	c.peers.wrote(to)
	return c.sock.writeTo(b, to)
}

// WriteTo is WriteToAddrPort for callers with a net.Addr.
func (c *roundConn) WriteTo(b []byte, to net.Addr) (int, error) {
	u, ok := to.(*net.UDPAddr)
	if !ok {
		return 0, &net.OpError{Op: "write", Net: "udp", Addr: to, Err: net.UnknownNetworkError(to.Network())}
	}
	return c.WriteToAddrPort(b, u.AddrPort())
}

// LocalAddr is the socket's address.
func (c *roundConn) LocalAddr() net.Addr { return c.local }

// SetDeadline, SetReadDeadline and SetWriteDeadline do nothing: reads wait
// for rounds, which Close ends, and writes never wait.
func (c *roundConn) SetDeadline(time.Time) error      { return nil }
func (c *roundConn) SetReadDeadline(time.Time) error  { return nil }
func (c *roundConn) SetWriteDeadline(time.Time) error { return nil }

// Close ends any wait for a round and closes the socket.
func (c *roundConn) Close() error {
	err := net.ErrClosed
	c.closeOnce.Do(func() {
		close(c.done)
		err = c.sock.close()
	})
	return err
}

// settle starts a round and returns once what it read has gone up the
// stack, or after most. pion passes each datagram from goroutine to
// goroutine (the UDP mux, the ICE candidate, DTLS, SCTP, the channel's
// reader), so there is no call to wait on; instead the caller waits until
// the reading goroutine has handed out the whole round and, for a while,
// nothing has moved: no datagram handed out or written and no message
// delivered (delivered counts those). On one thread (GOMAXPROCS 1) it
// yields (runtime.Gosched), which comes back only once every goroutine the
// round woke has run or waits, so quiet can be short. With more threads
// the round runs beside the caller, whose yields come back at once, and a
// hand-off between goroutines on different threads can take a while (a
// thread is woken): the caller naps instead of spinning, and the quiet it
// waits for is quietThreads.
//
// Settles do not overlap, and callers share them: a caller whose tick was
// due at due is served by any round that began at or after due (it read
// everything that came before the tick). So the matches of a process,
// whose ticks fall together, read one round a tick between them and wait
// for it once, and no match's wait is prolonged by another's traffic.
//
// From dues that come a steady period apart (ticks), settle learns the
// period and has the reader start a round of its own a quarter of a tick
// before the next is due (early): by the tick most of its traffic has
// passed the stack, and the tick's round holds only the last quarter's.
func (c *roundConn) settle(due time.Time, delivered func() uint64, quiet, quietThreads, most time.Duration) {
	c.settleMu.Lock()
	for {
		if !c.settleAt.Before(due) {
			// The settle under way or the last one ended began after due.
			for gen := c.settleGen; c.settling && c.settleGen == gen; {
				c.settleEnded.Wait()
			}
			c.settleMu.Unlock()
			return
		}
		if !c.settling {
			break
		}
		// One began before due is under way: the next is this caller's.
		for gen := c.settleGen; c.settleGen == gen; {
			c.settleEnded.Wait()
		}
	}
	c.settling, c.settleAt = true, time.Now()
	// Dues a steady period apart are ticks: the next is due a period on.
	period := due.Sub(c.lastDue)
	if !c.lastDue.IsZero() && period > 0 && period <= maxTickPeriod && (period-c.lastPeriod).Abs() <= period/100 {
		c.early.Store(int64(due.Add(period - period/earlyRoundLead).Sub(c.base)))
	}
	c.lastDue, c.lastPeriod = due, period
	c.settleMu.Unlock()
	c.settleRound(delivered, quiet, quietThreads, most)
	c.settleMu.Lock()
	c.settling = false
	c.settleGen++
	c.settleEnded.Broadcast()
	c.settleMu.Unlock()
}

// settleRound is one caller's settle: it starts a round and waits for it
// to pass, as settle says.
func (c *roundConn) settleRound(delivered func() uint64, quiet, quietThreads, most time.Duration) {
	moved := func() uint64 { return c.handed.Load() + c.written.Load() + delivered() }
	before := c.rounds.Load()
	c.ReadNow()
	threads := runtime.GOMAXPROCS(0) > 1
	if threads {
		quiet = quietThreads
	}
	start := time.Now()
	last, since := moved(), start
	for {
		if threads {
			time.Sleep(quiet / 8)
		} else {
			runtime.Gosched()
		}
		now := time.Now()
		st := c.state.Load()
		// Idle: waiting on the socket (it took no round), or waiting for
		// the next round after reading one since the call.
		idle := st == readerWaitingSocket ||
			st == readerWaitingRound && len(c.wake) == 0 && c.rounds.Load() != before
		if m := moved(); m != last || !idle {
			last, since = m, now
		} else if now.Sub(since) >= quiet {
			break
		}
		if now.Sub(start) >= most {
			break
		}
	}
	// A reader waiting on the socket (a session negotiates) reads each
	// datagram as it comes and has not taken this round's call: it is not
	// to start a round of its own later, reading what came after the tick.
	if c.state.Load() == readerWaitingSocket {
		select {
		case <-c.wake:
		default:
		}
	}
}
