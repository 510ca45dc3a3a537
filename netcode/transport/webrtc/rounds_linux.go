package webrtc

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// batchSlots is how many datagrams one recvmmsg takes; slotBytes is the
// largest datagram kept (peers keep theirs to the path MTU, about 1200
// bytes; a longer one is dropped, as the network would).
const (
	batchSlots = 32
	slotBytes  = 2048
)

// hurryPollMs is how long one wait for a datagram lasts while a session
// negotiates, before the reader looks again whether it still should wait.
const hurryPollMs = 5

// roundSocket is the UDP socket on its own descriptor, outside the Go
// runtime's network poller (which would wake a thread for every datagram
// that comes, even with no goroutine waiting for it), read with recvmmsg
// into buffers reused from round to round. Nothing here blocks in the
// runtime's way: reads and writes do not wait (the socket is non-blocking),
// and a reader that must wait for a datagram waits in poll(2).
type roundSocket struct {
	// mu is held for reading around every use of fd and for writing by
	// close, so that fd is never closed (and its number reused) under a
	// call.
	mu     sync.RWMutex
	fd     int
	closed bool
	v4     bool // an AF_INET socket (else AF_INET6, taking IPv4 mapped)

	// Used only by the reading goroutine: what the socket kept (in), when
	// to drain it between rounds (pace), the first datagram of the batch
	// handed out (first), and the buffers recvmmsg reads into.
	in    *intake
	pace  drainPace
	polls atomic.Uint64 // waits in poll(2) for a datagram
	first int
	got   int // what recvmmsg took
	msgs  [batchSlots]unix.Mmsghdr
	iovs  [batchSlots]unix.Iovec
	names [batchSlots]unix.RawSockaddrInet6
	bufs  [batchSlots][slotBytes]byte
}

// openRoundSocket takes c's socket onto a descriptor of its own and closes
// c, which takes the socket out of the runtime's poller.
func openRoundSocket(c *net.UDPConn, in *intake, interval time.Duration) (*roundSocket, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("webrtc: socket: %w", err)
	}
	s := &roundSocket{fd: -1, in: in}
	s.pace.interval = interval
	var dupErr error
	if err := raw.Control(func(fd uintptr) {
		s.fd, dupErr = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
	}); err != nil {
		return nil, fmt.Errorf("webrtc: socket: %w", err)
	}
	if dupErr != nil {
		return nil, fmt.Errorf("webrtc: dup socket: %w", dupErr)
	}
	if err := c.Close(); err != nil {
		unix.Close(s.fd)
		return nil, fmt.Errorf("webrtc: socket: %w", err)
	}
	if err := unix.SetNonblock(s.fd, true); err != nil {
		unix.Close(s.fd)
		return nil, fmt.Errorf("webrtc: socket: %w", err)
	}
	sa, err := unix.Getsockname(s.fd)
	if err != nil {
		unix.Close(s.fd)
		return nil, fmt.Errorf("webrtc: socket: %w", err)
	}
	_, s.v4 = sa.(*unix.SockaddrInet4)
	for i := range s.msgs {
		s.iovs[i].Base = &s.bufs[i][0]
		s.iovs[i].SetLen(slotBytes)
		s.msgs[i].Hdr.Iov = &s.iovs[i]
		s.msgs[i].Hdr.SetIovlen(1)
		s.msgs[i].Hdr.Name = (*byte)(unsafe.Pointer(&s.names[i]))
	}
	return s, nil
}

// fill drains the socket and hands out up to batchSlots of the datagrams
// kept (data, from), returning how many. With none it returns 0 at once,
// unless wait says to wait for the next datagram; it tells waiting when it
// starts and stops waiting.
func (s *roundSocket) fill(wait func() bool, waiting func(bool)) (int, error) {
	for polled := false; ; polled = true {
		read, err := s.drainCount()
		if err != nil {
			return 0, err
		}
		first, n := s.in.take(batchSlots)
		if n > 0 {
			s.first = first
			return n, nil
		}
		// What woke the wait was dropped (a flood): the round ends, and
		// the next comes within hurryInterval, rather than the reader
		// spinning on the flood's every datagram.
		if polled && read > 0 || !wait() {
			return 0, nil
		}
		waiting(true)
		s.polls.Add(1)
		err = s.poll(unix.POLLIN, hurryPollMs)
		waiting(false)
		if err != nil {
			return 0, err
		}
		if !wait() { // what came waits for its round
			return 0, nil
		}
	}
}

// drainBatches bounds one drain: at most this many recvmmsg calls.
const drainBatches = 128

// drain moves what the kernel holds into the intake (which keeps what can
// be a peer's) and paces the next drain by how full the kernel's buffer
// was.
func (s *roundSocket) drain() error {
	_, err := s.drainCount()
	return err
}

// drainCount is drain, returning how many datagrams it read.
func (s *roundSocket) drainCount() (int, error) {
	held, rcvbuf := s.memInfo()
	read := 0
	for range drainBatches {
		if err := s.recvmmsg(); err != nil {
			return read, err
		}
		s.in.setNow(time.Now())
		read += max(s.got, 0)
		for i := range max(s.got, 0) {
			switch {
			case s.msgs[i].Hdr.Flags&unix.MSG_TRUNC != 0:
				s.in.count.taken.Add(1)
				s.in.count.drops[dropTruncated].Add(1)
			case s.addrOK(i):
				s.in.add(s.bufs[i][:s.msgs[i].Len], s.sender(i))
			}
		}
		if s.got < batchSlots {
			break
		}
	}
	s.pace.drained(time.Now(), held, rcvbuf)
	return read, nil
}

// nextDrain is when the socket is to be drained between rounds (zero:
// not before the next round).
func (s *roundSocket) nextDrain() time.Time { return s.pace.next() }

// memInfo is the bytes the kernel holds for the socket and the most it
// holds (SO_MEMINFO), or -1s where it does not say.
func (s *roundSocket) memInfo() (held, rcvbuf int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return -1, -1
	}
	mi, ok := memInfoFd(s.fd)
	if !ok {
		return -1, -1
	}
	return int(mi[skMeminfoRmemAlloc]), int(mi[skMeminfoRcvbuf])
}

// recvmmsg takes what is queued without waiting; got is -1 if nothing is.
func (s *roundSocket) recvmmsg() error {
	for i := range s.msgs {
		s.msgs[i].Hdr.Namelen = unix.SizeofSockaddrInet6
		s.msgs[i].Hdr.Flags = 0
		s.msgs[i].Len = 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return net.ErrClosed
	}
	for {
		// A raw system call: with MSG_DONTWAIT it cannot block, and a raw
		// call skips the runtime's bookkeeping for one that might (and
		// sysmon's handing this thread's P to another while it runs).
		r, _, e := unix.RawSyscall6(unix.SYS_RECVMMSG, uintptr(s.fd), uintptr(unsafe.Pointer(&s.msgs[0])), batchSlots, unix.MSG_DONTWAIT, 0, 0)
		switch e {
		case 0:
			s.got = int(r)
			return nil
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			s.got = -1
			return nil
		default:
			return fmt.Errorf("webrtc: recvmmsg: %w", e)
		}
	}
}

// poll waits up to ms milliseconds for the socket to be ready for events.
func (s *roundSocket) poll(events int16, ms int) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return net.ErrClosed
	}
	fds := [1]unix.PollFd{{Fd: int32(s.fd), Events: events}}
	if _, err := unix.Poll(fds[:], ms); err != nil && err != unix.EINTR {
		return fmt.Errorf("webrtc: poll: %w", err)
	}
	return nil
}

func (s *roundSocket) addrOK(i int) bool {
	f := s.names[i].Family
	return f == unix.AF_INET6 || f == unix.AF_INET
}

// data is the bytes of the batch's datagram i.
func (s *roundSocket) data(i int) []byte { return s.in.data(s.first + i) }

// from is the sender of the batch's datagram i.
func (s *roundSocket) from(i int) netip.AddrPort { return s.in.from(s.first + i) }

// sender is the sender of datagram i of what recvmmsg took (on an AF_INET6
// socket an IPv4 one is mapped, as the standard library reports it; a
// link-local IPv6 one has its interface as the zone).
func (s *roundSocket) sender(i int) netip.AddrPort {
	name := &s.names[i]
	if name.Family == unix.AF_INET {
		v4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(name))
		return netip.AddrPortFrom(netip.AddrFrom4(v4.Addr), ntohs(v4.Port))
	}
	addr := netip.AddrFrom16(name.Addr)
	if name.Scope_id != 0 {
		addr = addr.WithZone(strconv.FormatUint(uint64(name.Scope_id), 10))
	}
	return netip.AddrPortFrom(addr, ntohs(name.Port))
}

// writeTo sends b to to at once. A datagram the socket has no room for
// even after a short wait is dropped, as a full queue on the path would
// drop it: SCTP recovers what must arrive.
func (s *roundSocket) writeTo(b []byte, to netip.AddrPort) (int, error) {
	var sa6 unix.RawSockaddrInet6
	var sa4 unix.RawSockaddrInet4
	var sa unsafe.Pointer
	var salen uintptr
	addr := to.Addr()
	if s.v4 {
		if !addr.Unmap().Is4() {
			return 0, &net.OpError{Op: "write", Net: "udp", Err: fmt.Errorf("webrtc: IPv6 destination %v on an IPv4 socket", addr)}
		}
		sa4.Family, sa4.Addr, sa4.Port = unix.AF_INET, addr.Unmap().As4(), htons(to.Port())
		sa, salen = unsafe.Pointer(&sa4), unix.SizeofSockaddrInet4
	} else {
		sa6.Family, sa6.Addr, sa6.Port = unix.AF_INET6, addr.As16(), htons(to.Port())
		if z := addr.Zone(); z != "" {
			sa6.Scope_id = zoneIndex(z)
		}
		sa, salen = unsafe.Pointer(&sa6), unix.SizeofSockaddrInet6
	}
	var p unsafe.Pointer
	if len(b) > 0 {
		p = unsafe.Pointer(&b[0])
	}
	for tries := 0; ; tries++ {
		s.mu.RLock()
		if s.closed {
			s.mu.RUnlock()
			return 0, net.ErrClosed
		}
		// Raw, as recvmmsg in read: MSG_DONTWAIT, it cannot block.
		_, _, e := unix.RawSyscall6(unix.SYS_SENDTO, uintptr(s.fd), uintptr(p), uintptr(len(b)), unix.MSG_DONTWAIT, uintptr(sa), salen)
		s.mu.RUnlock()
		switch {
		case e == 0:
			return len(b), nil
		case e == unix.EINTR:
		case e == unix.EAGAIN && tries == 0:
			if err := s.poll(unix.POLLOUT, 10); err != nil {
				return 0, err
			}
		case e == unix.EAGAIN:
			return len(b), nil // dropped
		default:
			return 0, &net.OpError{Op: "write", Net: "udp", Addr: net.UDPAddrFromAddrPort(to), Err: e}
		}
	}
}

// zoneIndex is the interface index a zone names (a number, or a name).
func zoneIndex(zone string) uint32 {
	if n, err := strconv.ParseUint(zone, 10, 32); err == nil {
		return uint32(n)
	}
	if ifi, err := net.InterfaceByName(zone); err == nil {
		return uint32(ifi.Index)
	}
	return 0
}

// close closes the descriptor once no call is using it.
func (s *roundSocket) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return net.ErrClosed
	}
	s.closed = true
	return unix.Close(s.fd)
}

// ntohs turns a port from network order as the kernel stored it; htons
// the other way.
func ntohs(p uint16) uint16 {
	b := (*[2]byte)(unsafe.Pointer(&p))
	return uint16(b[0])<<8 | uint16(b[1])
}

func htons(p uint16) uint16 {
	var n uint16
	b := (*[2]byte)(unsafe.Pointer(&n))
	b[0], b[1] = byte(p>>8), byte(p)
	return n
}
