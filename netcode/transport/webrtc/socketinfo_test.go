//go:build linux

package webrtc

import (
	"net"
	"testing"
	"time"
)

// The server says what the kernel granted its shared UDP socket and how
// many datagrams the kernel dropped: a flood between two rounds overflows
// the buffer, and Stats counts what it lost, read in rounds or not.
func TestStatsSayWhatTheKernelDropped(t *testing.T) {
	for _, interval := range []time.Duration{time.Hour, 0} {
		t.Run("ReadInterval="+interval.String(), func(t *testing.T) {
			ts := newTestServer(t, ServerConfig{ReadInterval: interval})
			st := ts.Stats()
			if !st.SocketKnown || st.Socket.ReceiveBuffer <= 0 {
				t.Fatalf("socket: %+v (known %v)", st.Socket, st.SocketKnown)
			}
			t.Logf("receive buffer %d bytes, dropped %d", st.Socket.ReceiveBuffer, st.Socket.Dropped)
			if interval == 0 {
				return // read as they come: a flood here need not overflow
			}
			to := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: ts.LocalUDPPort()}
			c, err := net.DialUDP("udp4", nil, to)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			garbage := make([]byte, 1000)
			// Twice the buffer, with no round to read it (the next is
			// an hour away and nobody negotiates).
			for range 2 * st.Socket.ReceiveBuffer / len(garbage) {
				c.Write(garbage)
			}
			deadline := time.Now().Add(2 * time.Minute)
			for ts.Stats().Socket.Dropped == 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if after := ts.Stats().Socket; after.Dropped == 0 {
				t.Fatalf("a flood of twice the buffer dropped nothing: %+v", after)
			} else {
				t.Logf("after the flood: dropped %d", after.Dropped)
			}
		})
	}
}
