//go:build !js && !linux

package webrtc

import (
	"net"
	"net/netip"
)

// batchSlots is how many datagrams one fill takes: without recvmmsg, one.
const batchSlots = 1

// datagramBatch is one datagram read with the standard library, where
// there is no recvmmsg.
type datagramBatch struct {
	conn    *net.UDPConn
	n       int
	bufs    [batchSlots][]byte
	lens    [batchSlots]int
	senders [batchSlots]netip.AddrPort
}

func (b *datagramBatch) init(c *net.UDPConn) error {
	b.conn = c
	b.bufs[0] = make([]byte, 2048)
	return nil
}

func (b *datagramBatch) fill() error {
	n, from, err := b.conn.ReadFromUDPAddrPort(b.bufs[0])
	if err != nil {
		return err
	}
	b.n, b.lens[0], b.senders[0] = 1, n, from
	return nil
}

func (b *datagramBatch) data(i int) []byte         { return b.bufs[i][:b.lens[i]] }
func (b *datagramBatch) from(i int) netip.AddrPort { return b.senders[i] }
