package relay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/transport/v5/deadline"
	"golang.org/x/net/ipv4"
	"golang.org/x/net/ipv6"

	"github.com/sightline-game/sightline/netcode/ratelimit"
)

// The UDP intake: what the relay takes off its UDP socket for the TURN
// library.
//
// Any address on the internet may send the relay an Allocate request, and
// an unauthenticated one is answered with a 401 carrying a realm and a
// nonce, two to three times the request's size (72 bytes for a request of
// 28 to 36). Sent from a spoofed source,
// that answer goes to a victim: the relay would be a reflector that
// multiplies a flood by three. And a flood, reflected or not, crowds the
// socket's receive buffer, so that the kernel drops the datagrams of the
// players the relay is relaying too.
//
// So a goroutine drains the socket as fast as it fills (into a large
// receive buffer, UDPReadBuffer; 32 datagrams a system call, and under a
// flood in rounds of floodRound rather than a wake-up per datagram), and
// sorts its datagrams by source:
//
//   - a known source, one the relay has lately (KnownFor) sent a success
//     response to an authenticated request (Allocate, Refresh,
//     CreatePermission, ChannelBind), a Data indication or ChannelData:
//     its datagrams always pass;
//   - any other source: its datagrams pass a token bucket of
//     UnknownRatePerAddr a second per client (an IPv4 address, an IPv6
//     /64) and one of UnknownRate a second for all unknown sources, and
//     are dropped (counted) beyond them. The rate bound is what keeps the
//     relay from being a reflector: whatever a flood sends, the relay
//     answers unknown sources at most UnknownRate times a second.
//
// A Binding success answers anyone and makes no source known, since it
// needs no credential.

// Defaults of the UDP intake's Config fields left zero.
const (
	DefaultUDPReadBuffer       = 4 << 20
	DefaultUnknownRate         = 500
	DefaultUnknownBurst        = 100
	DefaultUnknownRatePerAddr  = 10
	DefaultUnknownBurstPerAddr = 10
	// DefaultKnownFor outlasts the TURN refreshes of an idle client: a
	// permission is refreshed every 4-5 minutes, an allocation before its
	// 10 minutes' lifetime ends.
	DefaultKnownFor = 10 * time.Minute
)

const (
	// intakeDatagram is the largest datagram the intake keeps whole: the
	// TURN library's read buffer, which drops a datagram that fills it.
	intakeDatagram = DefaultMaxFrame
	// intakeSlots is how many datagrams wait for the TURN library at
	// most; more are dropped (counted) until it catches up.
	intakeSlots = 512
	// intakeBatch is how many datagrams one read of the socket takes.
	intakeBatch = 32
	// floodRound is how long the intake lets datagrams gather in the
	// kernel's buffer after a read that dropped some and did not fill a
	// batch.
	floodRound = 500 * time.Microsecond
	// maxUnknownClients and maxKnown bound the intake's tables; an unknown
	// client beyond the table passes the shared bucket only.
	maxUnknownClients = 1 << 16
	maxKnown          = 1 << 16
	// intakeSweep is how often the tables forget expired entries.
	intakeSweep = 10 * time.Second
)

// intakeCounters count what the intake dropped.
type intakeCounters struct {
	unknownRate atomic.Int64 // datagrams from unknown sources over their rate
	queueFull   atomic.Int64 // datagrams dropped while the TURN library lagged
}

// intake is the net.PacketConn the TURN library reads the relay's UDP
// socket through.
type intake struct {
	net.PacketConn
	cfg    Config
	counts *intakeCounters

	queue   chan *datagram
	free    chan *datagram
	drained chan struct{}
	read    *deadline.Deadline

	mu        sync.Mutex
	known     map[netip.AddrPort]time.Time // source: known until
	unknown   map[netip.Addr]bucket        // client: its bucket
	shared    bucket
	lastSweep time.Time

	closeOnce sync.Once
}

type datagram struct {
	n    int
	from netip.AddrPort
	buf  [intakeDatagram]byte
}

// newIntake wraps the relay's UDP socket and starts draining it.
func (s *Server) newIntake(conn net.PacketConn) *intake {
	cfg := s.cfg
	if cfg.UDPReadBuffer > 0 {
		if rb, ok := conn.(interface{ SetReadBuffer(int) error }); ok {
			if err := rb.SetReadBuffer(cfg.UDPReadBuffer); err != nil {
				s.log.Warn("relay UDP receive buffer", "bytes", cfg.UDPReadBuffer, "err", err)
			}
		}
	}
	in := &intake{
		PacketConn: conn,
		cfg:        cfg,
		counts:     &s.dropped,
		queue:      make(chan *datagram, intakeSlots),
		free:       make(chan *datagram, intakeSlots),
		drained:    make(chan struct{}),
		read:       deadline.New(),
		known:      make(map[netip.AddrPort]time.Time),
		unknown:    make(map[netip.Addr]bucket),
		shared:     bucket{tokens: float64(cfg.UnknownBurst)},
		lastSweep:  time.Now(),
	}
	in.shared.last = in.lastSweep
	s.intake = in
	go in.drain()
	return in
}

// drain reads the socket until it is closed, keeping what admit lets in.
// It reads up to intakeBatch datagrams a system call (recvmmsg on Linux),
// which keeps a flood cheap to drain.
func (in *intake) drain() {
	defer close(in.drained)
	defer close(in.queue)
	read := in.reader()
	var slots [intakeBatch]*datagram
	for {
		for i, d := range slots {
			if d == nil {
				select {
				case slots[i] = <-in.free:
				default:
					slots[i] = new(datagram)
				}
			}
		}
		n, err := read(&slots)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// A transient error (an ICMP error queued on the socket, a
			// full kernel): the socket still works.
			time.Sleep(time.Millisecond)
			continue
		}
		now := time.Now()
		dropped := 0
		for i := range n {
			d := slots[i]
			d.from = netip.AddrPortFrom(d.from.Addr().Unmap(), d.from.Port())
			if !in.admit(d.from, now) {
				dropped++
				continue
			}
			select {
			case in.queue <- d:
				slots[i] = nil
			default:
				in.counts.queueFull.Add(1)
			}
		}
		// Under a flood, read in rounds: rather than wake for each
		// datagram as it comes, let a round's worth wait in the kernel's
		// buffer (50 of a flood of 100,000 a second; the players'
		// datagrams wait as long, a small part of a game's tick).
		if dropped > 0 && n < intakeBatch {
			time.Sleep(floodRound)
		}
	}
}

// reader returns how drain reads the socket: into the slots, returning
// how many it filled.
func (in *intake) reader() func(*[intakeBatch]*datagram) (int, error) {
	udp, ok := in.PacketConn.(*net.UDPConn)
	if !ok {
		return func(slots *[intakeBatch]*datagram) (int, error) {
			d := slots[0]
			n, from, err := in.PacketConn.ReadFrom(d.buf[:])
			if err != nil {
				return 0, err
			}
			d.n = n
			d.from, _ = netip.ParseAddrPort(from.String())
			return 1, nil
		}
	}
	var batch interface {
		ReadBatch([]ipv4.Message, int) (int, error)
	}
	if la, _ := udp.LocalAddr().(*net.UDPAddr); la != nil && la.IP.To4() != nil {
		batch = ipv4.NewPacketConn(udp)
	} else {
		batch = ipv6.NewPacketConn(udp)
	}
	msgs := make([]ipv4.Message, intakeBatch)
	return func(slots *[intakeBatch]*datagram) (int, error) {
		for i, d := range slots {
			if len(msgs[i].Buffers) == 0 {
				msgs[i].Buffers = make([][]byte, 1)
			}
			msgs[i].Buffers[0] = d.buf[:]
		}
		n, err := batch.ReadBatch(msgs, 0)
		for i := range n {
			slots[i].n = msgs[i].N
			if ua, ok := msgs[i].Addr.(*net.UDPAddr); ok {
				slots[i].from = ua.AddrPort()
			} else {
				slots[i].from = netip.AddrPort{}
			}
		}
		return n, err
	}
}

// admit says whether a datagram from src may pass.
func (in *intake) admit(src netip.AddrPort, now time.Time) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if now.Sub(in.lastSweep) >= intakeSweep {
		in.sweep(now)
	}
	if until, ok := in.known[src]; ok && now.Before(until) {
		return true
	}
	key := ratelimit.SubscriberAddr(src.Addr())
	b, ok := in.unknown[key]
	if !ok {
		b = bucket{tokens: float64(in.cfg.UnknownBurstPerAddr), last: now}
	}
	if !b.take(now, in.cfg.UnknownRatePerAddr, in.cfg.UnknownBurstPerAddr) {
		in.unknown[key] = b
		in.counts.unknownRate.Add(1)
		return false
	}
	if ok || len(in.unknown) < maxUnknownClients {
		in.unknown[key] = b
	}
	if !in.shared.take(now, in.cfg.UnknownRate, in.cfg.UnknownBurst) {
		in.counts.unknownRate.Add(1)
		return false
	}
	return true
}

// sweep forgets expired known sources and the buckets that have refilled
// (a new one is the same).
func (in *intake) sweep(now time.Time) {
	in.lastSweep = now
	for src, until := range in.known {
		if !now.Before(until) {
			delete(in.known, src)
		}
	}
	refill := time.Duration(float64(in.cfg.UnknownBurstPerAddr) / in.cfg.UnknownRatePerAddr * float64(time.Second))
	for key, b := range in.unknown {
		if now.Sub(b.last) >= refill {
			delete(in.unknown, key)
		}
	}
}

// learn makes dst known when p, which the relay sends it, is a success
// response to an authenticated TURN request, a Data indication or
// ChannelData.
func (in *intake) learn(p []byte, dst net.Addr) {
	if !relaysToClient(p) {
		return
	}
	var ap netip.AddrPort
	if ua, ok := dst.(*net.UDPAddr); ok {
		ap = ua.AddrPort()
	} else if a, err := netip.ParseAddrPort(dst.String()); err == nil {
		ap = a
	} else {
		return
	}
	ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
	until := time.Now().Add(in.cfg.KnownFor)
	in.mu.Lock()
	if _, ok := in.known[ap]; ok || len(in.known) < maxKnown {
		in.known[ap] = until
	}
	in.mu.Unlock()
}

// STUN methods and classes (RFC 8489, RFC 8656) whose messages to a
// client show the relay admitted it.
const (
	stunMagicCookie      = 0x2112A442
	methodAllocate       = 0x003
	methodRefresh        = 0x004
	methodData           = 0x007
	methodCreatePerm     = 0x008
	methodChannelBind    = 0x009
	classIndication      = 0b01
	classSuccessResponse = 0b10
)

// relaysToClient says whether p, sent by the relay, is ChannelData, a Data
// indication, or a success response to a request that needs a credential.
func relaysToClient(p []byte) bool {
	if len(p) < channelDataHeaderLen {
		return false
	}
	if p[0]>>6 == 1 {
		return true // ChannelData
	}
	if len(p) < stunHeaderLen || p[0]>>6 != 0 || binary.BigEndian.Uint32(p[4:8]) != stunMagicCookie {
		return false
	}
	t := binary.BigEndian.Uint16(p[0:2])
	method := t&0x000F | (t&0x00E0)>>1 | (t&0x3E00)>>2
	class := (t>>4)&1 | (t>>7)&2
	switch class {
	case classSuccessResponse:
		return method == methodAllocate || method == methodRefresh || method == methodCreatePerm || method == methodChannelBind
	case classIndication:
		return method == methodData
	}
	return false
}

func (in *intake) ReadFrom(p []byte) (int, net.Addr, error) {
	select {
	case d, ok := <-in.queue:
		if !ok {
			return 0, nil, fmt.Errorf("relay: UDP: %w", net.ErrClosed)
		}
		n := copy(p, d.buf[:d.n])
		from := net.UDPAddrFromAddrPort(d.from)
		select {
		case in.free <- d:
		default:
		}
		return n, from, nil
	case <-in.read.Done():
		return 0, nil, os.ErrDeadlineExceeded
	}
}

func (in *intake) WriteTo(p []byte, addr net.Addr) (int, error) {
	in.learn(p, addr)
	return in.PacketConn.WriteTo(p, addr)
}

func (in *intake) SetReadDeadline(t time.Time) error {
	in.read.Set(t)
	return nil
}

func (in *intake) SetDeadline(t time.Time) error {
	in.read.Set(t)
	return in.PacketConn.SetWriteDeadline(t)
}

func (in *intake) Close() error {
	err := net.ErrClosed
	in.closeOnce.Do(func() {
		err = in.PacketConn.Close()
		<-in.drained
	})
	return err
}

// bucket is a token bucket.
type bucket struct {
	tokens float64
	last   time.Time
}

// take refills b at rate a second up to burst since its last take, then
// takes a token if it holds one.
func (b *bucket) take(now time.Time, rate float64, burst int) bool {
	if dt := now.Sub(b.last); dt > 0 {
		b.tokens = min(float64(burst), b.tokens+dt.Seconds()*rate)
		b.last = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
