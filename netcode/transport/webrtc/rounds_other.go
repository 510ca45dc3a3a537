//go:build !js && !linux

package webrtc

import (
	"net"
	"net/netip"
	"time"
)

// batchSlots is how many datagrams one fill takes: without recvmmsg, one;
// slotBytes is the largest datagram kept.
const (
	batchSlots = 1
	slotBytes  = 2048
)

// roundSocket is the UDP socket read with the standard library, one
// datagram a fill, where there is no recvmmsg; it stays in the runtime's
// poller. What cannot be a peer's is dropped all the same (intake).
type roundSocket struct {
	conn  *net.UDPConn
	buf   []byte
	in    *intake
	first int
}

func openRoundSocket(c *net.UDPConn, in *intake, _ time.Duration) (*roundSocket, error) {
	return &roundSocket{conn: c, buf: make([]byte, slotBytes+1), in: in}, nil
}

// fill waits for the next datagram that can be a peer's (a round here
// always takes one), telling waiting.
func (s *roundSocket) fill(_ func() bool, waiting func(bool)) (int, error) {
	for {
		waiting(true)
		n, from, err := s.conn.ReadFromUDPAddrPort(s.buf)
		waiting(false)
		if err != nil {
			return 0, err
		}
		if n > slotBytes {
			s.in.count.taken.Add(1)
			s.in.count.drops[dropTruncated].Add(1)
			continue
		}
		s.in.setNow(time.Now())
		s.in.add(s.buf[:n], from)
		if first, n := s.in.take(1); n > 0 {
			s.first = first
			return 1, nil
		}
	}
}

// drain and nextDrain: a socket read as each datagram comes is never
// drained between rounds.
func (s *roundSocket) drain() error         { return nil }
func (s *roundSocket) nextDrain() time.Time { return time.Time{} }

func (s *roundSocket) data(i int) []byte         { return s.in.data(s.first + i) }
func (s *roundSocket) from(i int) netip.AddrPort { return s.in.from(s.first + i) }

func (s *roundSocket) writeTo(b []byte, to netip.AddrPort) (int, error) {
	return s.conn.WriteToUDPAddrPort(b, to)
}

func (s *roundSocket) close() error { return s.conn.Close() }

// memInfo does not say what the kernel holds here.
func (s *roundSocket) memInfo() (held, rcvbuf int) { return -1, -1 }
