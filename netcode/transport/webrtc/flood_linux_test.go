package webrtc

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/ipv4"
)

// A flood of 100,000 garbage datagrams a second from another address,
// against a stock Linux host's receive buffer (212,992 bytes asked, the
// most net.core.rmem_max gives there): the socket is drained between
// rounds, the garbage is dropped as it comes, and the peer's datagrams,
// one every 2 ms, all wait for their round. Without the drains the
// kernel's buffer, full between two rounds, dropped some 86% of them.
func TestRoundsKeepPeersThroughAFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("floods loopback for 1.5 s")
	}
	p := newRoundPairBuffer(t, "udp4", "127.0.0.1", 50*time.Millisecond, 212992)
	info, _ := p.rc.sock.info()
	flooder, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 2)})
	if err != nil {
		t.Skipf("no 127.0.0.2 here: %v", err)
	}
	defer flooder.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	var wg sync.WaitGroup
	// Ticks: a round every 33 ms.
	wg.Go(func() {
		tick := time.NewTicker(time.Second / 30)
		defer tick.Stop()
		for ctx.Err() == nil {
			<-tick.C
			p.rc.ReadNow()
		}
	})
	// The flood.
	var flooded uint64
	wg.Go(func() {
		rng := rand.NewChaCha8([32]byte{1})
		to := net.UDPAddrFromAddrPort(p.to)
		msgs := make([]ipv4.Message, 50)
		for i := range msgs {
			b := make([]byte, 100)
			rng.Read(b)
			b[0] = 0x80
			msgs[i] = ipv4.Message{Buffers: [][]byte{b}, Addr: to}
		}
		pc := ipv4.NewPacketConn(flooder)
		start := time.Now()
		for ctx.Err() == nil {
			for due := uint64(time.Since(start).Seconds() * 100000); flooded < due; {
				n, err := pc.WriteBatch(msgs[:min(due-flooded, 50)], 0)
				if err != nil {
					break
				}
				flooded += uint64(n)
			}
			time.Sleep(500 * time.Microsecond)
		}
	})
	// The peer: a datagram every 2 ms.
	var sent int
	wg.Go(func() {
		for ctx.Err() == nil {
			var b [4]byte
			binary.BigEndian.PutUint32(b[:], uint32(sent))
			p.peer.WriteToUDPAddrPort(peerDatagram(b[:]), p.to)
			sent++
			time.Sleep(2 * time.Millisecond)
		}
	})
	c := p.reads()
	got := make(map[uint32]bool)
	collect := func(until <-chan struct{}) {
		for {
			select {
			case r := <-c:
				if r.err != nil {
					t.Fatal(r.err)
				}
				got[binary.BigEndian.Uint32([]byte(r.data))] = true
			case <-until:
				return
			}
		}
	}
	collect(ctx.Done())
	wg.Wait()
	p.rc.ReadNow()
	settle, stop := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer stop()
	collect(settle.Done())
	after, _ := p.rc.sock.info()
	st := p.rc.count.stats()
	lost := sent - len(got)
	t.Logf("flood of %d, peer's %d: %d lost; the kernel dropped %d (buffer %d); the intake took %d, dropped %+v",
		flooded, sent, lost, after.Dropped-info.Dropped, after.ReceiveBuffer, st.Taken, st)
	if flooded < 100000 || sent < 200 {
		t.Fatalf("the flood sent %d, the peer %d: too few to tell", flooded, sent)
	}
	// On a quiet machine none is lost; a loaded one can stall the reader
	// for the few milliseconds the buffer holds.
	if lost > sent/10 {
		t.Errorf("%d of the peer's %d datagrams lost", lost, sent)
	}
	if st.NotPeer < flooded*9/10 {
		t.Errorf("the intake dropped %d of a flood of %d", st.NotPeer, flooded)
	}
}
