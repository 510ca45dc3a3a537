package webrtc

import (
	"fmt"
	"net"
	"net/netip"
	"syscall"
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

// datagramBatch is one recvmmsg's worth of datagrams, in buffers reused
// from round to round.
type datagramBatch struct {
	raw   syscall.RawConn
	recv  func(fd uintptr) bool // b.recvmmsg, bound once
	got   int                   // what recv took
	errno syscall.Errno         // and its error
	n     int
	msgs  [batchSlots]unix.Mmsghdr
	iovs  [batchSlots]unix.Iovec
	names [batchSlots]unix.RawSockaddrInet6
	bufs  [batchSlots][slotBytes]byte
}

func (b *datagramBatch) init(c *net.UDPConn) error {
	raw, err := c.SyscallConn()
	if err != nil {
		return fmt.Errorf("webrtc: socket: %w", err)
	}
	b.raw = raw
	b.recv = b.recvmmsg
	for i := range b.msgs {
		b.iovs[i].Base = &b.bufs[i][0]
		b.iovs[i].SetLen(slotBytes)
		b.msgs[i].Hdr.Iov = &b.iovs[i]
		b.msgs[i].Hdr.SetIovlen(1)
		b.msgs[i].Hdr.Name = (*byte)(unsafe.Pointer(&b.names[i]))
	}
	return nil
}

// fill reads what is queued on the socket, up to batchSlots datagrams,
// waiting for the first if none is. Truncated datagrams are left out.
func (b *datagramBatch) fill() error {
	for {
		if err := b.raw.Read(b.recv); err != nil {
			return err
		}
		if b.errno != 0 {
			return fmt.Errorf("webrtc: recvmmsg: %w", b.errno)
		}
		// Keep the whole datagrams, in order.
		n := 0
		for i := range b.got {
			if b.msgs[i].Hdr.Flags&unix.MSG_TRUNC != 0 || !b.addrOK(i) {
				continue
			}
			if n != i {
				b.bufs[n], b.names[n], b.msgs[n].Len = b.bufs[i], b.names[i], b.msgs[i].Len
			}
			n++
		}
		if n > 0 {
			b.n = n
			return nil
		}
	}
}

// recvmmsg takes what is queued without waiting; false (nothing queued)
// has the runtime wait until the socket is readable and call it again.
func (b *datagramBatch) recvmmsg(fd uintptr) bool {
	for i := range b.msgs {
		b.msgs[i].Hdr.Namelen = unix.SizeofSockaddrInet6
		b.msgs[i].Hdr.Flags = 0
		b.msgs[i].Len = 0
	}
	r, _, e := unix.Syscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&b.msgs[0])), batchSlots, unix.MSG_DONTWAIT, 0, 0)
	if e == unix.EAGAIN || e == unix.EINTR {
		return false
	}
	b.got, b.errno = int(r), e
	if e != 0 {
		b.got = 0
	}
	return true
}

func (b *datagramBatch) addrOK(i int) bool {
	f := b.names[i].Family
	return f == unix.AF_INET6 || f == unix.AF_INET
}

// data is datagram i's bytes.
func (b *datagramBatch) data(i int) []byte { return b.bufs[i][:b.msgs[i].Len] }

// from is datagram i's sender.
func (b *datagramBatch) from(i int) netip.AddrPort {
	name := &b.names[i]
	if name.Family == unix.AF_INET {
		v4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(name))
		return netip.AddrPortFrom(netip.AddrFrom4(v4.Addr), ntohs(v4.Port))
	}
	return netip.AddrPortFrom(netip.AddrFrom16(name.Addr), ntohs(name.Port))
}

// ntohs turns a port from network order as the kernel stored it.
func ntohs(p uint16) uint16 {
	b := (*[2]byte)(unsafe.Pointer(&p))
	return uint16(b[0])<<8 | uint16(b[1])
}
