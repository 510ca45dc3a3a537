// Package testnet helps tests that start real programs on this machine.
package testnet

import (
	"net"
	"strconv"
	"testing"
)

// FreePort returns a loopback port ("tcp" or "udp") that was free a moment ago.
func FreePort(t testing.TB, network string) int {
	t.Helper()
	if network == "udp" {
		c, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return c.LocalAddr().(*net.UDPAddr).Port
	}
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// FreePortPair returns a loopback TCP port that was free a moment ago, as
// was the port after it: for cmd/server on its defaults, whose counters
// are on loopback at its HTTP port + 1.
func FreePortPair(t testing.TB) int {
	t.Helper()
	for range 100 {
		p := FreePort(t, "tcp")
		if p >= 65535 {
			continue
		}
		if l, err := net.Listen("tcp4", net.JoinHostPort("127.0.0.1", strconv.Itoa(p+1))); err == nil {
			l.Close()
			return p
		}
	}
	t.Fatal("no two free ports in a row")
	return 0
}
