// Package testnet helps tests that start real programs on this machine.
package testnet

import (
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// FreePort returns a loopback port ("tcp" or "udp") that was free a moment
// ago, for a program the test starts to listen on.
//
// It is picked outside the kernel's ephemeral range, where every outgoing
// connection and every listen on port 0 takes its port: a port from that
// range, closed again for the program to take, may meanwhile become the
// local end of another test's connection ("address already in use"). Out
// of it, only another FreePort at random could pick the same port in that
// moment.
func FreePort(t testing.TB, network string) int {
	t.Helper()
	low, high := ephemeralRange()
	for range 200 {
		p := 10000 + rand.IntN(55535) // 10000-65534
		if p >= low && p <= high {
			continue
		}
		if free(network, p) {
			return p
		}
	}
	// A machine whose ephemeral range leaves nothing free outside it.
	return anyPort(t, network)
}

// free reports whether a loopback port can be listened on now.
func free(network string, port int) bool {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	if network == "udp" {
		c, err := net.ListenPacket("udp4", addr)
		if err != nil {
			return false
		}
		c.Close()
		return true
	}
	l, err := net.Listen("tcp4", addr)
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// anyPort returns a port the kernel picks (from its ephemeral range).
func anyPort(t testing.TB, network string) int {
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

// ephemeralRange returns the kernel's range of ports for outgoing
// connections and listens on port 0 (Linux's default where it cannot be
// read).
func ephemeralRange() (low, high int) {
	low, high = 32768, 60999
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return low, high
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return low, high
	}
	l, err1 := strconv.Atoi(f[0])
	h, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || l > h {
		return low, high
	}
	return l, h
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
		if free("tcp", p+1) {
			return p
		}
	}
	t.Fatal("no two free ports in a row")
	return 0
}
