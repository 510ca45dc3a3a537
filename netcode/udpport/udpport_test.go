package udpport

import (
	"net"
	"testing"
)

// TestListenFallsBackWhenThePortIsTaken takes a free port, then asks for
// it again: the second socket gets another port, and says it fell back.
// Once the port is free again it is the one given.
func TestListenFallsBackWhenThePortIsTaken(t *testing.T) {
	first, fell, err := Listen(0)
	if err != nil || fell {
		t.Fatalf("Listen(0): %v, fell back %v", err, fell)
	}
	port := Port(first)
	if port == 0 {
		t.Fatal("Listen(0) listens on port 0")
	}

	second, fell, err := Listen(port)
	if err != nil {
		t.Fatalf("Listen(%d) while taken: %v", port, err)
	}
	if !fell || Port(second) == port || Port(second) == 0 {
		t.Fatalf("Listen(%d) while taken: port %d, fell back %v; want another port and true", port, Port(second), fell)
	}
	// Both sockets work: a datagram reaches the fallback port.
	c, err := net.DialUDP("udp", nil, &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: Port(second)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("hi")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	n, _, err := second.ReadFromUDP(buf)
	if err != nil || string(buf[:n]) != "hi" {
		t.Fatalf("read %q, %v on the fallback port", buf[:n], err)
	}
	second.Close()

	first.Close()
	again, fell, err := Listen(port)
	if err != nil || fell || Port(again) != port {
		t.Fatalf("Listen(%d) once free: port %d, fell back %v, %v", port, Port(again), fell, err)
	}
	again.Close()
}

// TestListenRefusesABadPort: a port out of range is an error, not a
// silent fallback.
func TestListenRefusesABadPort(t *testing.T) {
	if c, _, err := Listen(70000); err == nil {
		c.Close()
		t.Fatal("Listen(70000) succeeded")
	}
}
