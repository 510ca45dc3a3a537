package conditioner

import (
	"encoding/binary"
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// fakeConn is an inner connection that records what is sent and hands out
// what a test injects.
type fakeConn struct {
	mu        sync.Mutex
	sent      []fakeMsg
	inbox     []fakeMsg
	done      chan struct{}
	closed    bool
	closes    int
	refuseEvt int // refuse this many event sends as congested
}

type fakeMsg struct {
	ch transport.Channel
	p  []byte
}

func newFakeConn() *fakeConn { return &fakeConn{done: make(chan struct{})} }

func (f *fakeConn) Send(ch transport.Channel, p []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return transport.ErrClosed
	}
	if ch == transport.Events && f.refuseEvt > 0 {
		f.refuseEvt--
		return transport.ErrCongested
	}
	f.sent = append(f.sent, fakeMsg{ch, append([]byte(nil), p...)})
	return nil
}

func (f *fakeConn) Receive(fn func(ch transport.Channel, p []byte)) int {
	f.mu.Lock()
	in := f.inbox
	f.inbox = nil
	f.mu.Unlock()
	for _, m := range in {
		fn(m.ch, m.p)
	}
	return len(in)
}

func (f *fakeConn) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closes++
	if !f.closed {
		f.closed = true
		close(f.done)
	}
	return nil
}

func (f *fakeConn) Done() <-chan struct{} { return f.done }

func (f *fakeConn) Stats() transport.Stats { return transport.Stats{SentMessages: 42, QueueDropped: 7} }

func (f *fakeConn) inject(ch transport.Channel, p []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.inbox = append(f.inbox, fakeMsg{ch, append([]byte(nil), p...)})
}

func (f *fakeConn) takeSent() []fakeMsg {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.sent
	f.sent = nil
	return s
}

// simClock is a settable clock, safe for concurrent use.
type simClock struct{ ns atomic.Int64 }

func (c *simClock) now() time.Duration      { return time.Duration(c.ns.Load()) }
func (c *simClock) set(d time.Duration)     { c.ns.Store(int64(d)) }
func (c *simClock) advance(d time.Duration) { c.ns.Add(int64(d)) }

func msg(i int) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(i)) }

func num(p []byte) int { return int(binary.LittleEndian.Uint32(p)) }

func TestZeroPassesThrough(t *testing.T) {
	f := newFakeConn()
	var clk simClock
	c := New(f, clk.now, 1)
	chans := []transport.Channel{transport.Snapshots, transport.Inputs, transport.Events, transport.Replicas}
	for i := range 100 {
		if err := c.Send(chans[i%4], msg(i)); err != nil {
			t.Fatal(err)
		}
	}
	sent := f.takeSent()
	if len(sent) != 100 {
		t.Fatalf("%d of 100 messages reached the inner connection at once", len(sent))
	}
	for i, m := range sent {
		if m.ch != chans[i%4] || num(m.p) != i {
			t.Fatalf("message %d: got %v #%d", i, m.ch, num(m.p))
		}
	}
	for i := range 100 {
		f.inject(chans[i%4], msg(i))
	}
	i := 0
	n := c.Receive(func(ch transport.Channel, p []byte) {
		if ch != chans[i%4] || num(p) != i {
			t.Fatalf("received %d: got %v #%d", i, ch, num(p))
		}
		i++
	})
	if n != 100 || i != 100 {
		t.Fatalf("received %d (%d calls) of 100 at once", n, i)
	}
}

func TestLossSparesEvents(t *testing.T) {
	f := newFakeConn()
	var clk simClock
	c := New(f, clk.now, 2)
	c.Set(Conditions{Loss: 0.3})
	const n = 10000
	// Incoming: snapshots and events from the server.
	for i := range n {
		f.inject(transport.Snapshots, msg(i))
		if i%10 == 0 {
			f.inject(transport.Events, msg(i))
		}
	}
	snaps, events, lastEvent := 0, 0, -1
	c.Receive(func(ch transport.Channel, p []byte) {
		switch ch {
		case transport.Snapshots:
			snaps++
		case transport.Events:
			if num(p) <= lastEvent {
				t.Fatalf("event %d after %d", num(p), lastEvent)
			}
			lastEvent = num(p)
			events++
		}
	})
	// Outgoing: inputs and events to the server.
	for i := range n {
		if err := c.Send(transport.Inputs, msg(i)); err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 {
			if err := c.Send(transport.Events, msg(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	inputs, upEvents := 0, 0
	for _, m := range f.takeSent() {
		if m.ch == transport.Inputs {
			inputs++
		} else {
			upEvents++
		}
	}
	down := float64(snaps) / n
	up := float64(inputs) / n
	t.Logf("30%% loss: %.1f%% of snapshots and %.1f%% of inputs lost; events %d/%d and %d/%d arrived",
		100*(1-down), 100*(1-up), events, n/10, upEvents, n/10)
	if math.Abs(down-0.7) > 0.02 || math.Abs(up-0.7) > 0.02 {
		t.Errorf("delivered %.3f of snapshots and %.3f of inputs, want 0.70 ± 0.02", down, up)
	}
	if events != n/10 || upEvents != n/10 {
		t.Errorf("events lost: %d and %d of %d arrived", events, upEvents, n/10)
	}
	upStats, downStats := c.LinkStats()
	if upStats.Lost+uint64(inputs) != n || downStats.Lost+uint64(snaps) != n {
		t.Errorf("link stats %+v / %+v do not add up", upStats, downStats)
	}
}

func TestLatency(t *testing.T) {
	f := newFakeConn()
	var clk simClock
	c := New(f, clk.now, 3)
	const lat = 80 * time.Millisecond
	c.Set(Conditions{Latency: lat})
	for _, ch := range []transport.Channel{transport.Snapshots, transport.Events} {
		clk.set(0)
		start := time.Duration(0)
		if err := c.Send(ch, msg(1)); err != nil {
			t.Fatal(err)
		}
		f.inject(ch, msg(2))
		if n := c.Receive(func(transport.Channel, []byte) {}); n != 0 {
			t.Fatalf("%v: received %d messages with no time passed", ch, n)
		}
		clk.set(start + lat - time.Millisecond)
		c.Pump()
		if s := f.takeSent(); len(s) != 0 {
			t.Fatalf("%v: sent %d messages 1 ms early", ch, len(s))
		}
		if n := c.Receive(func(transport.Channel, []byte) {}); n != 0 {
			t.Fatalf("%v: received %d messages 1 ms early", ch, n)
		}
		clk.set(start + lat)
		c.Pump()
		if s := f.takeSent(); len(s) != 1 || s[0].ch != ch || num(s[0].p) != 1 {
			t.Fatalf("%v: after the latency the inner connection got %v", ch, s)
		}
		got := 0
		c.Receive(func(gc transport.Channel, p []byte) {
			if gc != ch || num(p) != 2 {
				t.Fatalf("%v: received %v #%d", ch, gc, num(p))
			}
			got++
		})
		if got != 1 {
			t.Fatalf("%v: received %d messages after the latency, want 1", ch, got)
		}
		clk.set(10 * time.Second) // drain, for the next round
		c.Pump()
		f.takeSent()
	}
	if got := c.Conditions(); got != (Conditions{Latency: lat}) {
		t.Fatalf("Conditions() = %+v", got)
	}
}

func TestEventsKeepOrderUnderJitter(t *testing.T) {
	f := newFakeConn()
	var clk simClock
	c := New(f, clk.now, 4)
	c.Set(Conditions{Loss: 0.2, Latency: 50 * time.Millisecond, Jitter: 40 * time.Millisecond})
	var recvEvents []int
	reordered := false
	lastSnap := -1
	recv := func(ch transport.Channel, p []byte) {
		switch ch {
		case transport.Events:
			recvEvents = append(recvEvents, num(p))
		case transport.Snapshots:
			if num(p) < lastSnap {
				reordered = true
			}
			lastSnap = max(lastSnap, num(p))
		}
	}
	for i := range 2000 {
		clk.advance(5 * time.Millisecond)
		f.inject(transport.Snapshots, msg(i))
		f.inject(transport.Events, msg(i))
		if err := c.Send(transport.Events, msg(i)); err != nil {
			t.Fatal(err)
		}
		if err := c.Send(transport.Inputs, msg(i)); err != nil {
			t.Fatal(err)
		}
		if i == 1000 { // lowering the latency must not let events overtake
			c.Set(Conditions{Loss: 0.2, Latency: 5 * time.Millisecond, Jitter: 40 * time.Millisecond})
		}
		c.Receive(recv)
	}
	clk.advance(time.Second)
	c.Receive(recv)
	var sentEvents []int
	for _, m := range f.takeSent() {
		if m.ch == transport.Events {
			sentEvents = append(sentEvents, num(m.p))
		}
	}
	for name, evs := range map[string][]int{"received": recvEvents, "sent": sentEvents} {
		if len(evs) != 2000 {
			t.Errorf("%s %d of 2000 events", name, len(evs))
		}
		for i, e := range evs {
			if e != i {
				t.Fatalf("%s event %d is #%d: out of order", name, i, e)
			}
		}
	}
	if !reordered {
		t.Error("40 ms of jitter on 5 ms spacing never reordered a snapshot: jitter not applied")
	}
}

func TestTurnedOffKeepsEventOrder(t *testing.T) {
	f := newFakeConn()
	var clk simClock
	c := New(f, clk.now, 5)
	c.Set(Conditions{Latency: 100 * time.Millisecond})
	for i := range 5 {
		_ = c.Send(transport.Events, msg(i))
		f.inject(transport.Events, msg(i))
	}
	c.Receive(func(transport.Channel, []byte) { t.Fatal("delivered early") })
	c.Set(Conditions{})
	_ = c.Send(transport.Events, msg(5))
	f.inject(transport.Events, msg(5))
	c.Receive(func(transport.Channel, []byte) { t.Fatal("a new event overtook held ones") })
	if s := f.takeSent(); len(s) != 0 {
		t.Fatalf("a new event overtook held ones: %v", s)
	}
	clk.set(100 * time.Millisecond)
	var got []int
	c.Receive(func(_ transport.Channel, p []byte) { got = append(got, num(p)) })
	for _, m := range f.takeSent() {
		got = append(got, 100+num(m.p))
	}
	want := []int{0, 1, 2, 3, 4, 5, 100, 101, 102, 103, 104, 105}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	// Now everything is through: straight pass-through again.
	_ = c.Send(transport.Events, msg(6))
	if s := f.takeSent(); len(s) != 1 {
		t.Fatalf("not passed straight through once drained: %v", s)
	}
}

func TestRetriesCongestedEvents(t *testing.T) {
	f := newFakeConn()
	var clk simClock
	c := New(f, clk.now, 6)
	c.Set(Conditions{Latency: 10 * time.Millisecond})
	for i := range 3 {
		_ = c.Send(transport.Events, msg(i))
	}
	f.mu.Lock()
	f.refuseEvt = 1
	f.mu.Unlock()
	clk.set(10 * time.Millisecond)
	c.Pump()
	if s := f.takeSent(); len(s) != 0 {
		t.Fatalf("sent %d events past a congested one", len(s))
	}
	c.Pump()
	s := f.takeSent()
	if len(s) != 3 || num(s[0].p) != 0 || num(s[2].p) != 2 {
		t.Fatalf("after congestion cleared: %v", s)
	}
}

func TestDelegates(t *testing.T) {
	f := newFakeConn()
	var clk simClock
	c := New(f, clk.now, 7)
	if c.Stats() != f.Stats() {
		t.Fatal("Stats not delegated")
	}
	if c.Done() != f.Done() {
		t.Fatal("Done not delegated")
	}
	if err := c.Send(transport.Snapshots, make([]byte, transport.MaxMessageSize+1)); !errors.Is(err, transport.ErrTooLarge) {
		t.Fatalf("oversized Send: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	select {
	case <-c.Done():
	default:
		t.Fatal("Done not closed after Close")
	}
	if f.closes != 2 {
		t.Fatalf("inner Close called %d times, want 2", f.closes)
	}
	c.Set(Conditions{Latency: time.Millisecond})
	if err := c.Send(transport.Inputs, msg(1)); !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("Send after Close: %v", err)
	}
}

func TestSetClamps(t *testing.T) {
	c := New(newFakeConn(), func() time.Duration { return 0 }, 8)
	c.Set(Conditions{Loss: math.NaN(), BurstLen: math.NaN(), Latency: -time.Second, Jitter: time.Hour})
	if got := c.Conditions(); got != (Conditions{Jitter: MaxDelay}) {
		t.Fatalf("clamped to %+v", got)
	}
	c.Set(Conditions{Loss: 7, BurstLen: math.Inf(1)})
	if got := c.Conditions(); got.Loss != 1 || got.BurstLen != MaxBurst {
		t.Fatalf("loss clamped to %v, burst length to %v", got.Loss, got.BurstLen)
	}
}

// With BurstLen, the same share of unreliable messages is lost in runs of
// about that length, and events still all arrive.
func TestBurstLoss(t *testing.T) {
	f := newFakeConn()
	var clk simClock
	c := New(f, clk.now, 5)
	c.Set(Conditions{Loss: 0.1, BurstLen: 4})
	const n = 40000
	for i := range n {
		f.inject(transport.Snapshots, msg(i))
		if i%100 == 0 {
			f.inject(transport.Events, msg(i))
		}
	}
	got, events, runs, next := 0, 0, 0, 0
	c.Receive(func(ch transport.Channel, p []byte) {
		if ch == transport.Events {
			events++
			return
		}
		if num(p) > next {
			runs++ // a run of losses ended just before this message
		}
		next = num(p) + 1
		got++
	})
	if next < n {
		runs++
	}
	loss := 1 - float64(got)/n
	mean := float64(n-got) / float64(runs)
	t.Logf("loss %.3f in %d runs of mean length %.2f; %d of %d events", loss, runs, mean, events, n/100)
	if math.Abs(loss-0.1) > 0.015 || mean < 3.2 || mean > 4.8 {
		t.Errorf("loss %.3f in runs of mean %.2f, want 0.10 ± 0.015 in runs of 4 ± 0.8", loss, mean)
	}
	if events != n/100 {
		t.Errorf("%d of %d events arrived", events, n/100)
	}
}

func TestConcurrentSet(t *testing.T) {
	f := newFakeConn()
	var clk simClock
	c := New(f, clk.now, 9)
	stop := make(chan struct{})
	var injected atomic.Int64 // events the other end sent
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			c.Set(Conditions{Loss: float64(i%4) / 10, Latency: time.Duration(i%5) * 10 * time.Millisecond, Jitter: time.Duration(i%3) * 5 * time.Millisecond})
			_ = c.Conditions()
			_, _ = c.LinkStats()
		}
	}()
	go func() { // the other end's traffic arriving
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			ch := transport.Channel(i % 4)
			if ch == transport.Events {
				injected.Add(1)
			}
			f.inject(ch, msg(i))
			time.Sleep(10 * time.Microsecond)
		}
	}()
	received, sent := 0, 0
	count := func(ch transport.Channel, _ []byte) {
		if ch == transport.Events {
			received++
		}
	}
	for i := range 3000 {
		clk.advance(time.Millisecond)
		ch := transport.Channel(i % 4)
		if ch == transport.Events {
			sent++
		}
		_ = c.Send(ch, msg(i))
		c.Pump()
		c.Receive(count)
	}
	close(stop)
	wg.Wait()
	// What the other end sent last (a starved sender's may come after the
	// loop's last Receive) is taken in now, due a latency later; then the
	// clock passes any latency and everything is due.
	c.Receive(count)
	clk.advance(time.Second)
	c.Receive(count)
	upEvents := 0
	for _, m := range f.takeSent() {
		if m.ch == transport.Events {
			upEvents++
		}
	}
	if received != int(injected.Load()) || upEvents != sent {
		t.Fatalf("events: received %d of %d, sent %d of %d", received, injected.Load(), upEvents, sent)
	}
}

func TestOverMemoryTransport(t *testing.T) {
	var clk simClock
	srv, cli, err := memory.NewPair(memory.Config{Now: clk.now, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := New(cli, clk.now, 10)
	c.Set(Conditions{Latency: 50 * time.Millisecond})
	if err := srv.Send(transport.Snapshots, msg(1)); err != nil {
		t.Fatal(err)
	}
	if err := srv.Send(transport.Events, msg(2)); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(transport.Inputs, msg(3)); err != nil {
		t.Fatal(err)
	}
	none := func(ch transport.Channel, p []byte) { t.Fatalf("early: %v #%d", ch, num(p)) }
	c.Receive(none)
	clk.set(49 * time.Millisecond)
	c.Receive(none)
	srv.Receive(none)
	clk.set(50 * time.Millisecond)
	var got []int
	c.Receive(func(_ transport.Channel, p []byte) { got = append(got, num(p)) })
	srv.Receive(func(_ transport.Channel, p []byte) { got = append(got, num(p)) })
	if len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Fatalf("after 50 ms got %v, want [1 2 3]", got)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	<-srv.Done()
}
