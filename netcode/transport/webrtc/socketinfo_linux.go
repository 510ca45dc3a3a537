package webrtc

import (
	"net"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The fields of SO_MEMINFO this package reads (linux/sock_diag.h).
const (
	skMeminfoRmemAlloc = 0
	skMeminfoRcvbuf    = 1
	skMeminfoDrops     = 8
	skMeminfoVars      = 9
)

// memInfoFd reads the UDP socket fd's SO_MEMINFO.
func memInfoFd(fd int) (mi [skMeminfoVars]uint32, ok bool) {
	size := uint32(unsafe.Sizeof(mi))
	_, _, errno := unix.Syscall6(unix.SYS_GETSOCKOPT, uintptr(fd), unix.SOL_SOCKET, unix.SO_MEMINFO,
		uintptr(unsafe.Pointer(&mi[0])), uintptr(unsafe.Pointer(&size)), 0)
	return mi, errno == 0 && size >= (skMeminfoDrops+1)*4
}

// socketInfoFd reads what the kernel says of the UDP socket fd.
func socketInfoFd(fd int) (SocketInfo, bool) {
	mi, ok := memInfoFd(fd)
	if !ok {
		return SocketInfo{}, false
	}
	return SocketInfo{ReceiveBuffer: int(mi[skMeminfoRcvbuf]), Dropped: uint64(mi[skMeminfoDrops])}, true
}

// socketInfo reads it of c.
func socketInfo(c *net.UDPConn) (SocketInfo, bool) {
	raw, err := c.SyscallConn()
	if err != nil {
		return SocketInfo{}, false
	}
	var info SocketInfo
	var ok bool
	if raw.Control(func(fd uintptr) { info, ok = socketInfoFd(int(fd)) }) != nil {
		return SocketInfo{}, false
	}
	return info, ok
}

// info reads it of the round socket.
func (s *roundSocket) info() (SocketInfo, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return SocketInfo{}, false
	}
	return socketInfoFd(s.fd)
}
