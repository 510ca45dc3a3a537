package webrtc

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
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
	flooder := listenFlooder(t)
	// The flood runs 1.5 s and until it has sent 100,000 (a busy machine
	// sends fewer a second), 20 s at most.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var flooding atomic.Uint64
	go func() {
		began := time.Now()
		for ctx.Err() == nil && (time.Since(began) < 1500*time.Millisecond || flooding.Load() < 100000) {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
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
	var flooded uint64
	wg.Go(func() { flooded = floodGarbage(ctx, flooder, p.to, 100000, &flooding) })
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
	// What the last round kept comes out, however late a busy machine
	// runs the reader; and the socket's last datagrams, still queued when
	// the flood stopped, may be drained into the intake meanwhile: the
	// counts are compared once they hold still and every datagram they
	// handed out has come out.
	st := p.rc.count.stats()
	for deadline := time.Now().Add(arrival); time.Now().Before(deadline); {
		settle, stop := context.WithTimeout(context.Background(), 100*time.Millisecond)
		collect(settle.Done())
		stop()
		now := p.rc.count.stats()
		if now == st && uint64(len(got)) == st.Taken-st.NotPeer {
			break
		}
		st = now
	}
	after, _ := p.rc.sock.info()
	lost := sent - len(got)
	t.Logf("flood of %d, peer's %d: %d lost; the kernel dropped %d (buffer %d); the intake took %d, dropped %+v",
		flooded, sent, lost, after.Dropped-info.Dropped, after.ReceiveBuffer, st.Taken, st)
	if flooded < 100000 || sent < 200 {
		t.Fatalf("the flood sent %d, the peer %d: too few to tell", flooded, sent)
	}
	// What the intake took, it sorted: every datagram of the flood
	// dropped as no peer's, every one of the peer's kept.
	if st.Taken != st.NotPeer+uint64(len(got)) || st.Crowded != 0 || st.Truncated != 0 {
		t.Errorf("the intake took %d, dropped %+v, and handed out %d of the peer's", st.Taken, st, len(got))
	}
	// On a quiet machine none of the peer's is lost; a busy one can keep
	// the reader from running for longer than the few milliseconds the
	// buffer holds, and the kernel then drops the flood and the peer's
	// alike (with both cores busy with other processes, a load average of
	// 16: 32 of 458 of the peer's; beside the rest of the suite: 52 of
	// 365, and 60,090 of 144,844 of the flood). Without the drains it
	// dropped some 86% of the peer's.
	if lost > sent/2 {
		t.Errorf("%d of the peer's %d datagrams lost", lost, sent)
	}
	kernel := after.Dropped - info.Dropped
	if st.NotPeer+kernel < flooded*9/10 {
		t.Errorf("of a flood of %d the intake dropped %d, the kernel %d", flooded, st.NotPeer, kernel)
	}
}

// listenFlooder is a socket on 127.0.0.2: another host, as the server
// sees it.
func listenFlooder(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 2)})
	if err != nil {
		t.Skipf("no 127.0.0.2 here: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// floodGarbage sends rate datagrams of 100 random bytes a second from c
// to to until ctx ends, and returns how many it sent (keeping the count so
// far in sofar, when not nil).
func floodGarbage(ctx context.Context, c *net.UDPConn, to netip.AddrPort, rate int, sofar *atomic.Uint64) uint64 {
	rng := rand.NewChaCha8([32]byte{1})
	msgs := make([]ipv4.Message, 50)
	for i := range msgs {
		b := make([]byte, 100)
		rng.Read(b)
		b[0] = 0x80
		msgs[i] = ipv4.Message{Buffers: [][]byte{b}, Addr: net.UDPAddrFromAddrPort(to)}
	}
	pc := ipv4.NewPacketConn(c)
	start := time.Now()
	var sent uint64
	for ctx.Err() == nil {
		for due := uint64(time.Since(start).Seconds() * float64(rate)); sent < due; {
			n, err := pc.WriteBatch(msgs[:min(due-sent, uint64(len(msgs)))], 0)
			if err != nil {
				break
			}
			sent += uint64(n)
			if sofar != nil {
				sofar.Store(sent)
			}
		}
		time.Sleep(500 * time.Microsecond)
	}
	return sent
}

// While a session negotiates, a round that finds nothing waits in poll(2)
// for the next datagram; under a flood the next is always there, and
// dropped. The reader then ends the round instead of waking for each:
// at most about one wait a hurryInterval, where it would spin.
func TestFloodWhileNegotiatingDoesNotSpin(t *testing.T) {
	if testing.Short() {
		t.Skip("floods loopback for a second")
	}
	p := newRoundPair(t, "udp4", "127.0.0.1", 50*time.Millisecond)
	p.hurry.Store(true)
	c := p.reads()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	polls := p.rc.sock.polls.Load()
	flooded := floodGarbage(ctx, listenFlooder(t), p.to, 100000, nil)
	waits := p.rc.sock.polls.Load() - polls
	// The reader still reads: a datagram sent after the flood comes. The
	// flood may have left the kernel's buffer full (a busy machine runs the
	// reader late), which drops what comes then, so it is sent again
	// until one comes.
	for deadline := time.Now().Add(arrival); ; {
		p.send(t, "after")
		select {
		case r := <-c:
			if r.data != "after" {
				t.Fatalf("after the flood: %q", r.data)
			}
		case <-time.After(200 * time.Millisecond):
			if time.Now().Before(deadline) {
				continue
			}
			t.Fatalf("no datagram within %v of the flood's end", arrival)
		}
		break
	}
	t.Logf("a flood of %d in a second: %d waits for a datagram", flooded, waits)
	if most := uint64(2 * time.Second / hurryInterval); waits > most {
		t.Errorf("a flood of %d in a second woke the reader's wait %d times, want at most %d", flooded, waits, most)
	}
}
