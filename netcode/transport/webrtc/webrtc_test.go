//go:build !js

package webrtc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
)

// result is what one end saw of its peer's traffic.
type result struct {
	unreliable int      // distinct intact unreliable messages
	dupes      int      // unreliable messages seen twice
	corrupt    int      // wrong tag, wrong channel or bad bytes
	events     []uint32 // event sequence numbers in arrival order
	sendErr    error
}

// traffic describes one direction of an exchange.
type traffic struct {
	tag   uint32
	ch    transport.Channel // the unreliable channel used
	n, m  int               // unreliable messages, events
	size  int               // unreliable message size
	burst int               // if > 0, pause 1ms after every burst messages
}

// pump sends out on c while receiving in, until it has every event of
// in and either every unreliable message or no more arrive for settle.
func pump(ctx context.Context, c transport.Conn, out, in traffic, settle time.Duration) result {
	var r result
	sendDone := make(chan error, 1)
	go func() {
		every := max(1, out.n/max(1, out.m))
		ev := 0
		for i := range out.n {
			if err := sendPaced(ctx, c, out.ch, message(out.tag, uint32(i), out.size)); err != nil {
				sendDone <- fmt.Errorf("unreliable %d: %w", i, err)
				return
			}
			if i%every == 0 && ev < out.m {
				if err := sendPaced(ctx, c, transport.Events, message(out.tag, uint32(ev), 100)); err != nil {
					sendDone <- fmt.Errorf("event %d: %w", ev, err)
					return
				}
				ev++
			}
			if out.burst > 0 && i%out.burst == out.burst-1 {
				time.Sleep(time.Millisecond)
			}
		}
		for ; ev < out.m; ev++ {
			if err := sendPaced(ctx, c, transport.Events, message(out.tag, uint32(ev), 100)); err != nil {
				sendDone <- fmt.Errorf("event %d: %w", ev, err)
				return
			}
		}
		sendDone <- nil
	}()

	seen := make([]bool, in.n)
	sent := false
	lastNew := time.Now()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		got := c.Receive(func(ch transport.Channel, p []byte) {
			tag, seq, ok := parse(p)
			switch {
			case !ok || tag != in.tag:
				r.corrupt++
			case ch == transport.Events:
				r.events = append(r.events, seq)
			case ch == in.ch && int(seq) < in.n:
				if seen[seq] {
					r.dupes++
				} else {
					seen[seq] = true
					r.unreliable++
				}
			default:
				r.corrupt++
			}
		})
		if got > 0 {
			lastNew = time.Now()
		}
		if !sent {
			select {
			case r.sendErr = <-sendDone:
				sent = true
			default:
			}
		}
		if sent && len(r.events) >= in.m && (r.unreliable == in.n || time.Since(lastNew) > settle) {
			return r
		}
		select {
		case <-ctx.Done():
			if !sent {
				r.sendErr = <-sendDone
			}
			return r
		case <-tick.C:
		}
	}
}

// checkEvents reports whether events are exactly 0..m-1 in order.
func checkEvents(t *testing.T, who string, events []uint32, m int) {
	t.Helper()
	if len(events) != m {
		t.Errorf("%s: %d events, want %d", who, len(events), m)
		return
	}
	for i, e := range events {
		if e != uint32(i) {
			t.Errorf("%s: event %d is %d: not in order", who, i, e)
			return
		}
	}
}

func TestLoopbackThreeClients(t *testing.T) {
	const (
		clients = 3
		n       = 2000 // unreliable messages each way per client
		m       = 300  // events each way per client
	)
	ts := newTestServer(t, ServerConfig{})

	// A guard against a hang, not a bound on speed: the exchange's sends
	// are paced by congestion, and a machine busy with other work (load
	// average 10 on 2 cores) took 30 s for what an idle one does in 3.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	var wg sync.WaitGroup
	dialed := make([]transport.Conn, clients)
	openTime := make([]time.Duration, clients)
	for i := range clients {
		cfg := ts.dialConfig(t, fmt.Sprint("client", i))
		wg.Go(func() {
			start := time.Now()
			c, err := Dial(ctx, ts.url, cfg)
			openTime[i] = time.Since(start)
			if err != nil {
				t.Errorf("Dial %d: %v", i, err)
				return
			}
			dialed[i] = c
		})
	}
	accepted := make([]transport.Conn, 0, clients)
	for range clients {
		accepted = append(accepted, ts.accept(t))
	}
	wg.Wait()
	for _, c := range dialed {
		if c == nil {
			t.FailNow()
		}
		t.Cleanup(func() { c.Close() })
	}
	t.Logf("Dial to four open channels: %v", openTime)
	// On loopback both ends pair host candidates (the server may see the
	// client's first as peer-reflexive, before its offer's are parsed).
	for i, c := range dialed {
		if p := c.Stats().Path; p != "host" {
			t.Errorf("client %d path %q, want host", i, p)
		}
	}
	for i, c := range accepted {
		if p := c.Stats().Path; p != "host" && p != "prflx" {
			t.Errorf("server conn %d path %q, want host or prflx", i, p)
		}
	}
	if ts.Sessions() != clients {
		t.Errorf("Sessions = %d, want %d", ts.Sessions(), clients)
	}

	// Pair accepted conns with clients: each client says hello first.
	byTag := make(map[uint32]transport.Conn)
	for i, c := range dialed {
		if err := c.Send(transport.Events, message(uint32(100+i), 1<<30, 8)); err != nil {
			t.Fatal(err)
		}
	}
	for _, sc := range accepted {
		deadline := time.Now().Add(2 * time.Minute)
		for tag := uint32(0); tag == 0 && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			sc.Receive(func(ch transport.Channel, p []byte) {
				if t, s, ok := parse(p); ok && ch == transport.Events && s == 1<<30 {
					tag = t
				}
			})
			if tag != 0 {
				byTag[tag] = sc
			}
		}
	}
	if len(byTag) != clients {
		t.Fatalf("identified %d of %d server conns", len(byTag), clients)
	}

	start := time.Now()
	var mu sync.Mutex
	results := map[string]result{}
	for i, cc := range dialed {
		sc := byTag[uint32(100+i)]
		up := traffic{tag: uint32(100 + i), ch: transport.Inputs, n: n, m: m, size: 200, burst: 2}
		down := traffic{tag: uint32(200 + i), ch: transport.Snapshots, n: n, m: m, size: 1000, burst: 2}
		wg.Go(func() {
			r := pump(ctx, cc, up, down, time.Second)
			mu.Lock()
			results[fmt.Sprint("client", i)] = r
			mu.Unlock()
		})
		wg.Go(func() {
			r := pump(ctx, sc, down, up, time.Second)
			mu.Lock()
			results[fmt.Sprint("server", i)] = r
			mu.Unlock()
		})
	}
	wg.Wait()
	t.Logf("exchange took %v", time.Since(start))
	for who, r := range results {
		if r.sendErr != nil {
			t.Errorf("%s: send: %v", who, r.sendErr)
		}
		t.Logf("%s: received %d/%d unreliable, %d/%d events", who, r.unreliable, n, len(r.events), m)
		if r.unreliable < n*95/100 {
			t.Errorf("%s: only %d of %d unreliable messages arrived on loopback", who, r.unreliable, n)
		}
		if r.dupes != 0 || r.corrupt != 0 {
			t.Errorf("%s: %d duplicates, %d corrupt or misrouted", who, r.dupes, r.corrupt)
		}
		checkEvents(t, who, r.events, m)
	}

	// All peers share the server's one UDP port.
	port := ts.LocalUDPPort()
	remotes := map[string]bool{}
	for _, sc := range accepted {
		pair, err := sc.(*conn).pc.SCTP().Transport().ICETransport().GetSelectedCandidatePair()
		if err != nil || pair == nil {
			t.Fatalf("selected pair: %v, %v", pair, err)
		}
		if int(pair.Local.Port) != port || pair.Local.Address != "127.0.0.1" {
			t.Errorf("server side of pair is %s:%d, want 127.0.0.1:%d", pair.Local.Address, pair.Local.Port, port)
		}
		remotes[fmt.Sprintf("%s:%d", pair.Remote.Address, pair.Remote.Port)] = true
	}
	if len(remotes) != clients {
		t.Errorf("clients' addresses %v: want %d distinct", remotes, clients)
	}

	st := dialed[0].Stats()
	if st.SentMessages < n+m || st.ReceivedMessages < uint64(results["client0"].unreliable+m) {
		t.Errorf("client0 stats %+v", st)
	}
	t.Logf("client0 stats %+v", st)

	// Sending errors.
	c0 := dialed[0]
	if err := c0.Send(transport.Snapshots, make([]byte, transport.MaxMessageSize+1)); !errors.Is(err, transport.ErrTooLarge) {
		t.Errorf("oversized Send = %v", err)
	}
	if err := c0.Send(transport.Channel(7), nil); !errors.Is(err, ErrUnknownChannel) {
		t.Errorf("bad channel Send = %v", err)
	}
	if err := c0.Send(transport.Events, make([]byte, transport.MaxMessageSize)); err != nil {
		t.Errorf("max-size Send = %v", err)
	}
}

func TestCloseReachesPeer(t *testing.T) {
	ts := newTestServer(t, ServerConfig{})
	for _, closer := range []string{"client", "server"} {
		t.Run("by "+closer, func(t *testing.T) {
			cc := ts.dial(t, "client", ts.dialConfig(t, "client"))
			sc := ts.accept(t)
			// A final event sent just before Close must still be readable
			// after Done.
			from, to := cc, sc
			if closer == "server" {
				from, to = sc, cc
			}
			if err := from.Send(transport.Events, message(1, 99, 50)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond)
			start := time.Now()
			if err := from.Close(); err != nil {
				t.Fatal(err)
			}
			closeTook := time.Since(start)
			select {
			case <-from.Done():
			default:
				t.Fatal("Done not closed after Close returned")
			}
			if err := from.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
			if err := from.Send(transport.Events, []byte("x")); !errors.Is(err, transport.ErrClosed) {
				t.Errorf("Send after Close = %v", err)
			}
			waitDone(t, to, 2*time.Minute)
			t.Logf("%s's Close returned after %v; the peer's Done fired %v after Close began",
				closer, closeTook, time.Since(start))
			var got []uint32
			to.Receive(func(ch transport.Channel, p []byte) {
				if _, seq, ok := parse(p); ok && ch == transport.Events {
					got = append(got, seq)
				}
			})
			if !slices.Equal(got, []uint32{99}) {
				t.Errorf("final event: got %v", got)
			}
			if err := to.(*conn).Err(); !errors.Is(err, ErrPeerGone) {
				t.Errorf("peer's cause = %v, want ErrPeerGone", err)
			}
			deadline := time.Now().Add(2 * time.Minute)
			for ts.Sessions() != 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if n := ts.Sessions(); n != 0 {
				t.Errorf("Sessions = %d after both ends closed", n)
			}
		})
	}
}

func TestCongestion(t *testing.T) {
	ts := newTestServer(t, ServerConfig{})
	cfg := ts.dialConfig(t, "client")
	const limit = 8 << 10
	cfg.UnreliableBufferLimit = limit
	cc := ts.dial(t, "client", cfg)
	ts.accept(t)

	dc := cc.(*conn).chans[transport.Inputs].Load()
	p := make([]byte, 1000)
	var ok, congested int
	var maxBuffered uint64
	for range 2000 {
		err := cc.Send(transport.Inputs, p)
		switch {
		case err == nil:
			ok++
		case errors.Is(err, transport.ErrCongested):
			congested++
		default:
			t.Fatalf("Send: %v", err)
		}
		maxBuffered = max(maxBuffered, dc.BufferedAmount())
	}
	t.Logf("2000 back-to-back sends: %d accepted, %d congested, max buffered %d bytes", ok, congested, maxBuffered)
	if congested == 0 {
		t.Fatal("a tiny buffer limit never congested")
	}
	if maxBuffered > limit {
		t.Errorf("buffer reached %d bytes, over the %d limit", maxBuffered, limit)
	}
	if got := cc.Stats().Congested; got != uint64(congested) {
		t.Errorf("Stats.Congested = %d, want %d", got, congested)
	}
	if got := cc.Stats().SentMessages; got != uint64(ok) {
		t.Errorf("Stats.SentMessages = %d, want %d", got, ok)
	}
}

func TestEventsOverflowClosesConnection(t *testing.T) {
	ts := newTestServer(t, ServerConfig{ConnConfig: ConnConfig{ReceiveQueueLen: 16}})
	cc := ts.dial(t, "client", ts.dialConfig(t, "client"))
	sc := ts.accept(t)
	// Unreliable messages beyond the queue are dropped oldest first...
	for i := range 40 {
		if err := cc.Send(transport.Snapshots, message(1, uint32(i), 100)); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(2 * time.Minute)
	for sc.Stats().ReceivedMessages < 40 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	// The channel is unordered: the kept are the 16 that came last, the
	// newest of the test's among them, and any other message the client
	// sent on it.
	var seqs []uint32
	kept := 0
	sc.Receive(func(_ transport.Channel, p []byte) {
		kept++
		if _, s, ok := parse(p); ok {
			seqs = append(seqs, s)
		}
	})
	st := sc.Stats()
	if kept != 16 || int(st.QueueDropped)+kept != int(st.ReceivedMessages) {
		t.Errorf("kept %d messages (%v of the test's); stats %+v", kept, seqs, st)
	}
	if !slices.Contains(seqs, 39) { // unordered: not always the last to come
		t.Errorf("newest message %d was not kept: %v", 39, seqs)
	}
	// ...but events are never dropped: a peer that does not read is closed.
	for i := range 40 {
		if err := cc.Send(transport.Events, message(1, uint32(i), 100)); err != nil && !errors.Is(err, transport.ErrClosed) {
			t.Fatal(err)
		}
	}
	waitDone(t, sc, 2*time.Minute)
	if err := sc.(*conn).Err(); !errors.Is(err, ErrEventsOverflow) {
		t.Errorf("cause = %v, want ErrEventsOverflow", err)
	}
	waitDone(t, cc, 2*time.Minute)
}

func TestDialCancelled(t *testing.T) {
	// A signalling endpoint that never answers: Dial must give up with ctx
	// and leave nothing running (goleak checks at the end).
	block := make(chan struct{})
	stall := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer stall.Close()
	defer close(block)
	log, _ := newLog(t, "client")
	cfg := DialConfig{Version: testVersion, HTTPClient: stall.Client(), Logger: log, IncludeLoopback: true, SettingEngine: loopbackOnly}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	// The stalled server never answers: Dial gives up when ctx ends (its
	// error says so), and one that hung would meet the test's timeout.
	c, err := Dial(ctx, stall.URL, cfg)
	if err == nil {
		c.Close()
		t.Fatal("Dial succeeded against a stalled server")
	}
	if !errors.Is(err, ErrSignalling) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v", err)
	}
}
