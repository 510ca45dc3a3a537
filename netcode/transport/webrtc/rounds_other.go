//go:build !js && !linux

package webrtc

import (
	"net"
	"net/netip"
)

// batchSlots is how many datagrams one fill takes: without recvmmsg, one.
const batchSlots = 1

// roundSocket is the UDP socket read with the standard library, one
// datagram a fill, where there is no recvmmsg; it stays in the runtime's
// poller.
type roundSocket struct {
	conn   *net.UDPConn
	buf    []byte
	n      int
	sender netip.AddrPort
}

func openRoundSocket(c *net.UDPConn) (*roundSocket, error) {
	return &roundSocket{conn: c, buf: make([]byte, 2048)}, nil
}

// fill waits for the next datagram (a round here always takes one),
// telling waiting.
func (s *roundSocket) fill(_ func() bool, waiting func(bool)) (int, error) {
	waiting(true)
	n, from, err := s.conn.ReadFromUDPAddrPort(s.buf)
	waiting(false)
	if err != nil {
		return 0, err
	}
	s.n, s.sender = n, from
	return 1, nil
}

func (s *roundSocket) data(int) []byte         { return s.buf[:s.n] }
func (s *roundSocket) from(int) netip.AddrPort { return s.sender }

func (s *roundSocket) writeTo(b []byte, to netip.AddrPort) (int, error) {
	return s.conn.WriteToUDPAddrPort(b, to)
}

func (s *roundSocket) close() error { return s.conn.Close() }
