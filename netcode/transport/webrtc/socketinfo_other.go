//go:build !js && !linux

package webrtc

import "net"

// socketInfo says nothing where the kernel is not asked (Linux's SO_MEMINFO).
func socketInfo(*net.UDPConn) (SocketInfo, bool) { return SocketInfo{}, false }

func (s *roundSocket) info() (SocketInfo, bool) { return SocketInfo{}, false }
