// Package udpport opens the UDP socket a host's players share (their
// WebRTC data channels, through one ICE UDP mux): on the port asked for,
// so that a firewall rule or a router's forwarding can name it, or, when
// another program already holds that port (a second host on the same
// machine, a test), on a free port, so that hosting still works.
package udpport

import (
	"errors"
	"fmt"
	"net"
	"syscall"
)

// Listen returns a UDP socket on port on every interface (0: a free port).
// When port is taken it listens on a free port instead and reports
// fellBack; the socket's port is then the one to tell players and the
// firewall (LocalAddr). Any other failure is returned as it is.
func Listen(port int) (conn *net.UDPConn, fellBack bool, err error) {
	conn, err = net.ListenUDP("udp", &net.UDPAddr{Port: port})
	if err == nil || port == 0 || !errors.Is(err, syscall.EADDRINUSE) {
		if err != nil {
			return nil, false, fmt.Errorf("udp port %d: %w", port, err)
		}
		return conn, false, nil
	}
	conn, err = net.ListenUDP("udp", &net.UDPAddr{})
	if err != nil {
		return nil, false, fmt.Errorf("udp port %d taken, and no free port: %w", port, err)
	}
	return conn, true, nil
}

// Port returns the port conn listens on.
func Port(conn *net.UDPConn) int { return conn.LocalAddr().(*net.UDPAddr).Port }
