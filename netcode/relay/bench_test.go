package relay

import (
	"net"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/iceservers"
)

// What the relay adds to a datagram's way: a 200-byte datagram (about a
// snapshot's size) from a client to a peer that echoes it, and back, on
// loopback, straight and through an allocation (the client speaking TURN
// over UDP, the relay and the peer plain UDP). The difference of the two
// is the relay's time, both ways, in this process.
func BenchmarkRoundTrip(b *testing.B) {
	msg := make([]byte, 200)
	b.Run("direct", func(b *testing.B) {
		peer := startEcho(b)
		conn, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close()
		benchRoundTrips(b, conn, peer.conn.LocalAddr(), msg)
	})
	b.Run("relayed", func(b *testing.B) {
		secret := newSecret(b)
		s := startRelay(b, secret, func(c *Config) {
			c.AllowPeers = loopbackOnly
			c.RateBytesPerSecond = 1 << 30 // the benchmark's pace, not a player's
		})
		peer := startEcho(b)
		cred := iceservers.Mint(secret, "bench", time.Now(), time.Hour)
		c := dialUDP(b, s, cred.Username, cred.Password)
		relayed, err := c.Allocate()
		if err != nil {
			b.Fatal(err)
		}
		defer relayed.Close()
		benchRoundTrips(b, relayed, peer.conn.LocalAddr(), msg)
		if st := s.Stats(); st.BytesRelayed < int64(b.N)*int64(2*len(msg)) {
			b.Fatalf("the relay counted %d bytes for %d round trips", st.BytesRelayed, b.N)
		}
	})
}

// benchRoundTrips sends msg to peer from conn and waits for the echo, b.N
// times, and reports the round trip in µs.
func benchRoundTrips(b *testing.B, conn net.PacketConn, peer net.Addr, msg []byte) {
	buf := make([]byte, 2048)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if _, err := conn.WriteTo(msg, peer); err != nil {
			b.Fatal(err)
		}
		conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		if n, _, err := conn.ReadFrom(buf); err != nil || n != len(msg) {
			b.Fatalf("echo: %d bytes, %v", n, err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs/roundtrip")
}
