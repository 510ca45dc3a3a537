//go:build !js

package webrtc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
)

// roundPair is a socket read in rounds and a peer that sends to it.
type roundPair struct {
	rc    *roundConn
	peer  *net.UDPConn
	to    netip.AddrPort
	hurry atomic.Bool
}

func newRoundPair(t testing.TB, network, host string, interval time.Duration) *roundPair {
	t.Helper()
	return newRoundPairBuffer(t, network, host, interval, DefaultReceiveBuffer)
}

// newRoundPairBuffer is newRoundPair with a socket asking for a receive
// buffer of readBuffer bytes.
func newRoundPairBuffer(t testing.TB, network, host string, interval time.Duration, readBuffer int) *roundPair {
	t.Helper()
	ip := net.ParseIP(host)
	udp, err := net.ListenUDP(network, &net.UDPAddr{IP: ip})
	if err != nil {
		t.Skipf("no %s loopback here: %v", network, err)
	}
	p := &roundPair{}
	p.rc, err = newRoundConn(udp, interval, p.hurry.Load, readBuffer)
	if err != nil {
		t.Fatal(err)
	}
	if p.peer, err = net.ListenUDP(network, &net.UDPAddr{IP: ip}); err != nil {
		t.Fatal(err)
	}
	p.to = udp.LocalAddr().(*net.UDPAddr).AddrPort()
	// The peer is one the server has answered: its DTLS records are kept.
	p.rc.peers.wrote(p.peer.LocalAddr().(*net.UDPAddr).AddrPort())
	t.Cleanup(func() { p.rc.Close(); p.peer.Close() })
	return p
}

// send sends each message as a peer's datagram (peerDatagram).
func (p *roundPair) send(t *testing.T, msgs ...string) {
	t.Helper()
	for _, m := range msgs {
		if _, err := p.peer.WriteToUDPAddrPort(peerDatagram([]byte(m)), p.to); err != nil {
			t.Fatal(err)
		}
	}
}

// peerDatagram is payload in a DTLS record's header, as a peer sends it;
// reads hands out the payload again.
func peerDatagram(payload []byte) []byte {
	b := make([]byte, dtlsHeader, dtlsHeader+len(payload))
	b[0], b[1], b[2] = 23, 0xFE, 0xFD // application data, DTLS 1.2
	binary.BigEndian.PutUint16(b[11:13], uint16(len(payload)))
	return append(b, payload...)
}

// reads reads datagrams on a goroutine of its own, as the UDP mux does.
type read struct {
	data string
	from netip.AddrPort
	err  error
	at   time.Time
}

func (p *roundPair) reads() <-chan read {
	out := make(chan read, 64)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, from, err := p.rc.ReadFromAddrPort(buf)
			out <- read{string(buf[min(dtlsHeader, n):n]), from, err, time.Now()}
			if err != nil {
				return
			}
		}
	}()
	return out
}

// arrival bounds the wait for a datagram that is due: long, since a busy
// machine can hold up the sender and the reader alike, and a test whose
// socket is read in rounds an hour apart gets no datagram by waiting
// longer unless a round is due.
const arrival = 20 * time.Second

func next(t *testing.T, c <-chan read, within time.Duration) read {
	t.Helper()
	select {
	case r := <-c:
		return r
	case <-time.After(within):
		t.Fatalf("no datagram within %v", within)
		return read{}
	}
}

func none(t *testing.T, c <-chan read, during time.Duration) {
	t.Helper()
	select {
	case r := <-c:
		t.Fatalf("datagram %q (err %v) handed out before its round", r.data, r.err)
	case <-time.After(during):
	}
}

// Datagrams that come between rounds wait for the next one, which ReadNow
// starts; a round hands out everything queued, in order, with its sender.
func TestRoundsWaitForReadNow(t *testing.T) {
	for _, tc := range []struct{ network, host string }{{"udp4", "127.0.0.1"}, {"udp6", "::1"}} {
		t.Run(tc.network, func(t *testing.T) {
			p := newRoundPair(t, tc.network, tc.host, time.Hour)
			p.send(t, "first") // queued for the first round, which is due at once
			c := p.reads()
			if r := next(t, c, arrival); r.data != "first" || r.err != nil {
				t.Fatalf("the first round gave %q, %v", r.data, r.err)
			}
			p.send(t, "a", "b", "c")
			none(t, c, 150*time.Millisecond)
			p.rc.ReadNow()
			want := p.peer.LocalAddr().(*net.UDPAddr).AddrPort()
			for _, m := range []string{"a", "b", "c"} {
				r := next(t, c, arrival)
				if r.data != m || r.err != nil || r.from != want {
					t.Fatalf("got %q from %v (%v), want %q from %v", r.data, r.from, r.err, m, want)
				}
			}
			none(t, c, 50*time.Millisecond)
		})
	}
}

// Without ReadNow a round comes interval after the last one began.
func TestRoundsComeEveryInterval(t *testing.T) {
	const interval = 80 * time.Millisecond
	p := newRoundPair(t, "udp4", "127.0.0.1", interval)
	c := p.reads()
	p.send(t, "first")
	first := next(t, c, arrival)
	p.send(t, "second")
	r := next(t, c, arrival)
	if waited := r.at.Sub(first.at); r.data != "second" || waited < interval*3/4 {
		t.Fatalf("second datagram %q handed out %v after the first round, want about %v", r.data, waited, interval)
	}
}

// While a session negotiates (hurry) every datagram is read as it comes.
func TestRoundsHurryWhileNegotiating(t *testing.T) {
	p := newRoundPair(t, "udp4", "127.0.0.1", time.Hour)
	p.hurry.Store(true)
	c := p.reads()
	for _, m := range []string{"one", "two", "three"} {
		p.send(t, m)
		if r := next(t, c, arrival); r.data != m {
			t.Fatalf("got %q, want %q", r.data, m)
		}
	}
}

// While a session negotiates, datagrams still come in rounds, at most
// hurryInterval apart: a peer sending every 100 µs is read in a round per
// couple of milliseconds (a median wait of about 1 ms here), not one read
// per datagram, and none waits for the interval.
func TestRoundsWhileNegotiatingStayRounds(t *testing.T) {
	p := newRoundPair(t, "udp4", "127.0.0.1", time.Hour)
	p.hurry.Store(true)
	c := p.reads()
	const n = 1000
	rounds := p.rc.rounds.Load()
	sent, got := make([]time.Time, n), make([]time.Time, n)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			sent[i] = time.Now()
			p.peer.WriteToUDPAddrPort(peerDatagram([]byte(fmt.Sprint(i))), p.to)
			for time.Since(sent[i]) < 100*time.Microsecond {
			}
		}
	}()
	for i := range n {
		r := next(t, c, arrival)
		if r.data != fmt.Sprint(i) {
			t.Fatalf("got %q, want %d", r.data, i)
		}
		got[i] = r.at
	}
	took := p.rc.rounds.Load() - rounds
	<-done // sent is the sender's until here
	waits := make([]time.Duration, n)
	for i := range n {
		waits[i] = got[i].Sub(sent[i])
	}
	slices.Sort(waits)
	median := waits[n/2]
	t.Logf("%d datagrams in %d rounds, waits: median %v, longest %v", n, took, median, waits[n-1])
	// At most a round per hurryInterval of the time they took to come
	// (about 100 ms: 50 rounds; reading each as it came took 941).
	elapsed := got[n-1].Sub(sent[0])
	if most := uint64(elapsed/hurryInterval) + 10; took > most {
		t.Errorf("%d datagrams in %v took %d rounds, want at most %d", n, elapsed, took, most)
	}
	// Every datagram came without the hour-long interval's round: rounds
	// kept coming. How soon is the machine's to say (a loaded one stalled
	// the sender and the reader alike, a median of 10 ms).
}

// Close ends a wait for a round with an error, as closing a socket does.
func TestRoundsCloseEndsTheWait(t *testing.T) {
	p := newRoundPair(t, "udp4", "127.0.0.1", time.Hour)
	p.send(t, "first")
	c := p.reads()
	next(t, c, arrival)
	none(t, c, 20*time.Millisecond)
	p.rc.Close()
	if r := next(t, c, arrival); r.err == nil || !errors.Is(r.err, net.ErrClosed) {
		t.Fatalf("after Close: %q, %v; want net.ErrClosed", r.data, r.err)
	}
}

// A datagram longer than a slot is dropped, as the network would drop it;
// the ones beside it in the round are not.
func TestRoundsDropOversizeDatagrams(t *testing.T) {
	p := newRoundPair(t, "udp4", "127.0.0.1", time.Hour)
	p.send(t, "before", string(bytes.Repeat([]byte{'x'}, slotBytes+1)), "after")
	time.Sleep(20 * time.Millisecond) // all three queued for one round
	c := p.reads()
	for _, m := range []string{"before", "after"} {
		if r := next(t, c, arrival); r.data != m {
			t.Fatalf("got %d bytes %.10q, want %q", len(r.data), r.data, m)
		}
	}
}

// More datagrams than one batch takes are all handed out in the round.
func TestRoundsTakeMoreThanABatch(t *testing.T) {
	p := newRoundPair(t, "udp4", "127.0.0.1", time.Hour)
	const n = 3*batchSlots + 5
	for i := range n {
		p.send(t, string(rune('A'+i%26))+string(rune('0'+i/26)))
	}
	time.Sleep(20 * time.Millisecond)
	c := p.reads()
	for i := range n {
		want := string(rune('A'+i%26)) + string(rune('0'+i/26))
		if r := next(t, c, arrival); r.data != want {
			t.Fatalf("datagram %d: got %q, want %q", i, r.data, want)
		}
	}
	none(t, c, 50*time.Millisecond)
}

// A server reading in rounds carries a session: ICE and DTLS while
// negotiating (no delay), then messages both ways, each read at a round.
func TestServerReadsInRounds(t *testing.T) {
	ts := newTestServer(t, ServerConfig{ReadInterval: 20 * time.Millisecond})
	if ts.rounds == nil {
		t.Fatal("ReadInterval set, but the server reads every datagram as it comes")
	}
	cl := ts.dial(t, "client", ts.dialConfig(t, "client"))
	sc := ts.accept(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	const n = 60
	got := map[uint32]bool{}
	for seq := uint32(0); seq < n; seq++ {
		if err := sendPaced(ctx, cl, transport.Events, message(1, seq, 100)); err != nil {
			t.Fatal(err)
		}
		if seq%10 == 0 {
			ts.ReadNow()
		}
	}
	for len(got) < n {
		sc.Receive(func(_ transport.Channel, p []byte) {
			if _, seq, ok := parse(p); ok {
				got[seq] = true
			}
		})
		ts.ReadNow()
		select {
		case <-ctx.Done():
			t.Fatalf("%d of %d events arrived", len(got), n)
		case <-time.After(5 * time.Millisecond):
		}
	}
	if err := sc.Send(transport.Snapshots, message(2, 7, 50)); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkRoundRead(b *testing.B) {
	p := newRoundPair(b, "udp4", "127.0.0.1", time.Hour)
	rc, peer, to := p.rc, p.peer, p.to
	msg := peerDatagram(make([]byte, 100))
	buf := make([]byte, 2048)
	b.ReportAllocs()
	for b.Loop() {
		for range 16 {
			if _, err := peer.WriteToUDPAddrPort(msg, to); err != nil {
				b.Fatal(err)
			}
		}
		rc.ReadNow() // a round for the 16
		for range 16 {
			if _, _, err := rc.ReadFromAddrPort(buf); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(16*b.N), "ns/datagram")
}

// ReadRound returns once its round has passed pion's stack: the messages a
// peer sent before it are in the connection's queue when it returns, on
// one thread (as cmd/server runs one match) and on two, and none came
// without a round. The settle is called with a quiet of 50 ms and a bound
// of 5 s, not the server's 1 ms and 10 ms: how soon a round may be called
// passed is a latency a machine with both cores busy stretches (pion's
// goroutines descheduled for milliseconds; it failed so), while that a
// round passes whole once the stack is quiet, and nothing passes without
// one, holds at any load.
func TestReadRoundReturnsWithTheRoundsMessages(t *testing.T) {
	for _, procs := range []int{1, 2} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			testReadRound(t)
		})
	}
}

func testReadRound(t *testing.T) {
	ts := newTestServer(t, ServerConfig{ReadInterval: time.Hour})
	readRound := func() {
		ts.rounds.settle(time.Now(), ts.delivered.Load, 50*time.Millisecond, 50*time.Millisecond, 5*time.Second)
	}
	cl := ts.dial(t, "client", ts.dialConfig(t, "client"))
	sc := ts.accept(t)
	// The session has stopped negotiating: datagrams wait for rounds.
	for i := 0; ts.negotiating(); i++ {
		if i == 200 {
			t.Fatal("the session is still negotiating after 2 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	readRound() // whatever the handshake left
	sc.Receive(func(transport.Channel, []byte) {})
	for round := range 5 {
		const n = 8
		for seq := range uint32(n) {
			if err := cl.Send(transport.Inputs, message(uint32(round), seq, 60)); err != nil {
				t.Fatal(err)
			}
		}
		// In the server's socket, not read: the calls come an unsteady
		// time apart (30, 70, 40, 80 and 50 ms, each at least 30 ms from
		// the last however the machine delays them), so that ReadRound
		// sees no ticks to read before.
		time.Sleep(time.Duration(30+10*round+40*(round%2)) * time.Millisecond)
		// The client's stack sends on goroutines of its own, which a busy
		// machine runs late: the round is called for once the server's
		// socket holds the datagrams.
		waitHeld(t, ts.rounds.sock)
		early := sc.Receive(func(transport.Channel, []byte) {})
		if early != 0 {
			t.Fatalf("round %d: %d messages before ReadRound", round, early)
		}
		count := func() int {
			got := 0
			sc.Receive(func(_ transport.Channel, p []byte) {
				if tag, _, ok := parse(p); ok && tag == uint32(round) {
					got++
				}
			})
			return got
		}
		readRound()
		got := count()
		// A busy machine can run the client's stack so late that what the
		// socket held was not yet all of the messages: those wait for the
		// next round, and none may come without one (which would be a
		// round's datagram passing pion's stack after ReadRound returned).
		for rounds := 1; got < n; rounds++ {
			time.Sleep(50 * time.Millisecond)
			if late := count(); late != 0 {
				t.Fatalf("round %d: %d of %d in the queue when ReadRound returned, %d more came after it", round, got, n, late)
			}
			if rounds == 20 {
				t.Fatalf("round %d: %d of %d in the queue after %d calls of ReadRound", round, got, n, rounds)
			}
			waitHeld(t, ts.rounds.sock)
			readRound()
			got += count()
		}
	}
}

// waitHeld waits until the socket holds datagrams and has taken no more
// for 100 ms (where the kernel does not say, 100 ms).
func waitHeld(t *testing.T, s *roundSocket) {
	t.Helper()
	last, since := -1, time.Now()
	for deadline := time.Now().Add(arrival); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		held, _ := s.memInfo()
		switch {
		case held < 0:
			time.Sleep(100 * time.Millisecond)
			return
		case held != last:
			last, since = held, time.Now()
		case held > 0 && time.Since(since) >= 100*time.Millisecond:
			return
		}
	}
	t.Fatalf("the socket held %d bytes after %v", last, arrival)
}

// Writes on a socket read in rounds go out at once, to IPv4 and IPv6
// peers, and cost no allocation.
func TestRoundConnWrites(t *testing.T) {
	for _, tc := range []struct{ network, host string }{{"udp4", "127.0.0.1"}, {"udp6", "::1"}} {
		t.Run(tc.network, func(t *testing.T) {
			p := newRoundPair(t, tc.network, tc.host, time.Hour)
			to := p.peer.LocalAddr().(*net.UDPAddr).AddrPort()
			if _, err := p.rc.WriteToAddrPort([]byte("hello"), to); err != nil {
				t.Fatal(err)
			}
			if _, err := p.rc.WriteTo([]byte("again"), net.UDPAddrFromAddrPort(to)); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 64)
			for _, want := range []string{"hello", "again"} {
				p.peer.SetReadDeadline(time.Now().Add(2 * time.Minute))
				n, from, err := p.peer.ReadFromUDPAddrPort(buf)
				if err != nil || string(buf[:n]) != want || from.Port() != p.to.Port() {
					t.Fatalf("got %q from %v (%v), want %q from port %d", buf[:n], from, err, want, p.to.Port())
				}
			}
			msg := []byte("x")
			if allocs := testing.AllocsPerRun(100, func() {
				if _, err := p.rc.WriteToAddrPort(msg, to); err != nil {
					t.Fatal(err)
				}
			}); allocs != 0 {
				t.Fatalf("a write allocates %v times", allocs)
			}
			p.rc.Close()
			if _, err := p.rc.WriteToAddrPort(msg, to); !errors.Is(err, net.ErrClosed) {
				t.Fatalf("a write after Close: %v, want net.ErrClosed", err)
			}
		})
	}
}

func BenchmarkRoundWrite(b *testing.B) {
	p := newRoundPair(b, "udp4", "127.0.0.1", time.Hour)
	rc, peer := p.rc, p.peer
	to := peer.LocalAddr().(*net.UDPAddr).AddrPort()
	msg := peerDatagram(make([]byte, 100))
	buf := make([]byte, 2048)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rc.WriteToAddrPort(msg, to); err != nil {
			b.Fatal(err)
		}
		if _, _, err := peer.ReadFromUDPAddrPort(buf); err != nil {
			b.Fatal(err)
		}
	}
}

// Callers whose ticks were due together share one round and one settle:
// the matches of a process read the socket once a tick between them. A
// caller whose tick was due before the last round began is served by it.
func TestSettleSharedByTicksDueTogether(t *testing.T) {
	p := newRoundPair(t, "udp4", "127.0.0.1", time.Hour)
	p.send(t, "first") // queued for the first round, which is due at once
	c := p.reads()
	next(t, c, arrival)
	p.send(t, "a")
	due := time.Now()
	rounds := p.rc.rounds.Load()
	nothing := func() uint64 { return 0 }
	done := make(chan struct{})
	for range 4 {
		go func() {
			p.rc.settle(due, nothing, roundSettleQuiet, roundSettleQuietThreads, RoundSettleMax)
			done <- struct{}{}
		}()
	}
	for range 4 {
		<-done
	}
	if r := next(t, c, arrival); r.data != "a" {
		t.Fatalf("handed out %q, want a", r.data)
	}
	if got := p.rc.rounds.Load() - rounds; got != 1 {
		t.Fatalf("four callers due together read %d rounds, want 1", got)
	}
	p.send(t, "b")
	p.rc.settle(due, nothing, roundSettleQuiet, roundSettleQuietThreads, RoundSettleMax)
	if got := p.rc.rounds.Load() - rounds; got != 1 {
		t.Fatalf("a caller due before the last round began read another (%d in all)", got)
	}
	none(t, c, 20*time.Millisecond)
	p.rc.settle(time.Now(), nothing, roundSettleQuiet, roundSettleQuietThreads, RoundSettleMax)
	if r := next(t, c, arrival); r.data != "b" {
		t.Fatalf("handed out %q, want b", r.data)
	}
}

// Callers due a steady period apart are ticks: a round of its own starts a
// quarter of a period before the next is due, so that the tick's round
// holds only the last quarter's datagrams. Unsteady calls start none.
func TestRoundBeforeEachTick(t *testing.T) {
	const period = 100 * time.Millisecond
	p := newRoundPair(t, "udp4", "127.0.0.1", time.Hour)
	p.send(t, "first") // queued for the first round, which is due at once
	c := p.reads()
	next(t, c, arrival)
	nothing := func() uint64 { return 0 }
	tick := func(due time.Time) {
		time.Sleep(time.Until(due))
		p.rc.settle(due, nothing, roundSettleQuiet, roundSettleQuietThreads, RoundSettleMax)
	}
	start := time.Now()
	tick(start)
	tick(start.Add(period / 2)) // not yet steady
	p.send(t, "early?")
	none(t, c, period)
	tick(start.Add(2 * period))
	if r := next(t, c, arrival); r.data != "early?" {
		t.Fatalf("handed out %q, want early?", r.data)
	}
	due := start.Add(7 * period / 2)
	tick(due) // steady: 1.5 periods, then 1.5 again
	p.send(t, "x")
	none(t, c, period/2)
	r := next(t, c, arrival)
	if at, want := r.at.Sub(due), 3*period/2-3*period/8; r.data != "x" || at < want {
		t.Fatalf("handed out %q %v after the tick, want x a quarter tick before the next (%v)", r.data, at, want)
	}
}
