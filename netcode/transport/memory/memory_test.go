package memory

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport"
)

const ms = time.Millisecond

// clock is a simulated clock for tests.
type clock struct{ t time.Duration }

func (c *clock) now() time.Duration { return c.t }

func newPair(t testing.TB, cfg Config) (*Conn, *Conn, *clock) {
	t.Helper()
	clk := &clock{}
	cfg.Now = clk.now
	s, c, err := NewPair(cfg)
	if err != nil {
		t.Fatalf("NewPair: %v", err)
	}
	return s, c, clk
}

type rec struct {
	ch transport.Channel
	id uint32
	at time.Duration
}

func msg(id uint32, size int) []byte {
	p := make([]byte, max(size, 4))
	binary.BigEndian.PutUint32(p, id)
	return p
}

// run sends n messages each way on every channel, one per channel per
// millisecond, and records what each end receives and when.
func run(t *testing.T, cfg Config, n int) (atServer, atClient []rec) {
	t.Helper()
	s, c, clk := newPair(t, cfg)
	recv := func(dst *[]rec) func(transport.Channel, []byte) {
		return func(ch transport.Channel, p []byte) {
			*dst = append(*dst, rec{ch, binary.BigEndian.Uint32(p), clk.t})
		}
	}
	for i := range n {
		clk.t = time.Duration(i) * ms
		for ch := range transport.Channel(transport.NumChannels) {
			if err := s.Send(ch, msg(uint32(i), 40)); err != nil {
				t.Fatalf("server Send: %v", err)
			}
			if err := c.Send(ch, msg(uint32(i), 40)); err != nil {
				t.Fatalf("client Send: %v", err)
			}
		}
		s.Receive(recv(&atServer))
		c.Receive(recv(&atClient))
	}
	for { // drain
		a1, ok1 := s.NextArrival()
		a2, ok2 := c.NextArrival()
		if !ok1 && !ok2 {
			break
		}
		switch {
		case ok1 && ok2:
			clk.t = min(a1, a2)
		case ok1:
			clk.t = a1
		default:
			clk.t = a2
		}
		s.Receive(recv(&atServer))
		c.Receive(recv(&atClient))
	}
	return atServer, atClient
}

func lossy() linksim.Config {
	return linksim.Config{Loss: 0.3, BurstLen: 3, Latency: 40 * ms, Jitter: 20 * ms, Reorder: 0.1, Duplicate: 0.05}
}

func TestDeterministicBySeed(t *testing.T) {
	cfg := Config{ServerToClient: lossy(), ClientToServer: lossy(), Seed: 7}
	s1, c1 := run(t, cfg, 500)
	s2, c2 := run(t, cfg, 500)
	if !slices.Equal(s1, s2) || !slices.Equal(c1, c2) {
		t.Fatal("same seed gave different runs")
	}
	cfg.Seed = 8
	s3, c3 := run(t, cfg, 500)
	if slices.Equal(s1, s3) && slices.Equal(c1, c3) {
		t.Fatal("different seeds gave identical runs")
	}
	// The two directions must not mirror each other.
	if slices.Equal(s1, c1) {
		t.Fatal("both directions saw the same loss pattern")
	}
}

func TestLossOnlyOnUnreliableAndEventsInOrder(t *testing.T) {
	const n = 2000
	cfg := Config{ServerToClient: lossy(), ClientToServer: lossy(), Seed: 42}
	atServer, atClient := run(t, cfg, n)
	for _, side := range []struct {
		name string
		got  []rec
	}{{"server", atServer}, {"client", atClient}} {
		var counts [transport.NumChannels]int
		var events []uint32
		for _, r := range side.got {
			counts[r.ch]++
			if r.ch == transport.Events {
				events = append(events, r.id)
			}
		}
		if len(events) != n {
			t.Fatalf("%s: %d events, want %d", side.name, len(events), n)
		}
		for i, id := range events {
			if id != uint32(i) {
				t.Fatalf("%s: event %d has id %d: not exactly once in order", side.name, i, id)
			}
		}
		for _, ch := range []transport.Channel{transport.Snapshots, transport.Inputs, transport.Replicas} {
			// 30% loss plus 5% duplicates: expect roughly 0.7*1.05 = 73.5%.
			if counts[ch] < n*60/100 || counts[ch] > n*85/100 {
				t.Errorf("%s: %v got %d of %d, want about 73%%", side.name, ch, counts[ch], n)
			}
		}
	}
}

func TestEventsGetLatency(t *testing.T) {
	cfg := Config{ServerToClient: linksim.Config{Latency: 30 * ms}}
	s, c, clk := newPair(t, cfg)
	if err := s.Send(transport.Events, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := s.Send(transport.Snapshots, []byte("snap")); err != nil {
		t.Fatal(err)
	}
	clk.t = 29 * ms
	if n := c.Receive(func(transport.Channel, []byte) {}); n != 0 {
		t.Fatalf("received %d before the latency passed", n)
	}
	if at, ok := c.NextArrival(); !ok || at != 30*ms {
		t.Fatalf("NextArrival = %v, %v; want 30ms", at, ok)
	}
	clk.t = 30 * ms
	var got []string
	c.Receive(func(ch transport.Channel, p []byte) { got = append(got, ch.String()+":"+string(p)) })
	if want := []string{"snapshots:snap", "events:hello"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestArrivalOrderAcrossChannels(t *testing.T) {
	// Perfect link with jitter only: a later-sent snapshot can arrive before
	// an earlier event; Receive must hand them over in arrival order.
	cfg := Config{ServerToClient: linksim.Config{Latency: 10 * ms, Jitter: 10 * ms}, Seed: 3}
	s, c, clk := newPair(t, cfg)
	for i := range 200 {
		clk.t = time.Duration(i) * ms
		ch := transport.Snapshots
		if i%3 == 0 {
			ch = transport.Events
		}
		if err := s.Send(ch, msg(uint32(i), 8)); err != nil {
			t.Fatal(err)
		}
	}
	// Step through every arrival and check times never go backwards and
	// that delivering all at once gives the same order.
	var stepped []uint32
	for {
		at, ok := c.NextArrival()
		if !ok {
			break
		}
		clk.t = at
		c.Receive(func(_ transport.Channel, p []byte) { stepped = append(stepped, binary.BigEndian.Uint32(p)) })
	}
	s2, c2, clk2 := newPair(t, cfg)
	for i := range 200 {
		clk2.t = time.Duration(i) * ms
		ch := transport.Snapshots
		if i%3 == 0 {
			ch = transport.Events
		}
		_ = s2.Send(ch, msg(uint32(i), 8))
	}
	clk2.t = time.Second
	var batch []uint32
	c2.Receive(func(_ transport.Channel, p []byte) { batch = append(batch, binary.BigEndian.Uint32(p)) })
	if len(stepped) != 200 || !slices.Equal(stepped, batch) {
		t.Fatalf("stepped %d msgs, batch %d; orders equal: %v", len(stepped), len(batch), slices.Equal(stepped, batch))
	}
	if slices.IsSorted(batch) {
		t.Fatal("jitter should have reordered snapshots against events")
	}
}

func TestSendCopies(t *testing.T) {
	s, c, _ := newPair(t, Config{})
	p := []byte("abc")
	_ = s.Send(transport.Inputs, p)
	_ = s.Send(transport.Events, p)
	p[0] = 'X'
	var got []string
	c.Receive(func(_ transport.Channel, q []byte) { got = append(got, string(q)) })
	if !slices.Equal(got, []string{"abc", "abc"}) {
		t.Fatalf("got %q", got)
	}
}

func TestCloseSemantics(t *testing.T) {
	s, c, _ := newPair(t, Config{})
	_ = s.Send(transport.Events, []byte("pending"))
	select {
	case <-s.Done():
		t.Fatal("Done before Close")
	default:
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	for name, e := range map[string]*Conn{"server": s, "client": c} {
		select {
		case <-e.Done():
		default:
			t.Fatalf("%s: Done not closed", name)
		}
		if err := e.Send(transport.Snapshots, []byte("x")); !errors.Is(err, transport.ErrClosed) {
			t.Fatalf("%s: Send after close = %v", name, err)
		}
		if n := e.Receive(func(transport.Channel, []byte) { t.Fatal("delivered after close") }); n != 0 {
			t.Fatalf("%s: Receive after close = %d", name, n)
		}
	}
}

func TestCongestionAndLimits(t *testing.T) {
	s, c, clk := newPair(t, Config{ServerToClient: linksim.Config{Latency: 50 * ms}, MaxInFlightBytes: 1000})
	p := make([]byte, 300)
	for i := range 3 {
		if err := s.Send(transport.Snapshots, p); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	if err := s.Send(transport.Snapshots, p); !errors.Is(err, transport.ErrCongested) {
		t.Fatalf("4th send = %v, want ErrCongested", err)
	}
	// Other channels have their own budget.
	if err := s.Send(transport.Events, p); err != nil {
		t.Fatalf("events send: %v", err)
	}
	if got := s.Stats().Congested; got != 1 {
		t.Fatalf("Congested = %d, want 1", got)
	}
	clk.t = 50 * ms
	if n := c.Receive(func(transport.Channel, []byte) {}); n != 4 {
		t.Fatalf("received %d, want 4", n)
	}
	if err := s.Send(transport.Snapshots, p); err != nil {
		t.Fatalf("send after drain: %v", err)
	}
	// A single message larger than the limit still goes when nothing is in
	// flight on its channel (it would never go otherwise).
	big := make([]byte, 2000)
	if err := s.Send(transport.Replicas, big); err != nil {
		t.Fatalf("big send on idle channel: %v", err)
	}
	if err := s.Send(transport.Replicas, make([]byte, transport.MaxMessageSize+1)); !errors.Is(err, transport.ErrTooLarge) {
		t.Fatalf("oversize = %v", err)
	}
	if err := s.Send(transport.Channel(9), p); !errors.Is(err, ErrUnknownChannel) {
		t.Fatalf("bad channel = %v", err)
	}
	st := s.Stats()
	if st.SentMessages != 6 || st.SentBytes != 5*300+2000 {
		t.Fatalf("stats %+v", st)
	}
}

func TestLossyInFlightAccounting(t *testing.T) {
	// Lost packets must not stay counted in flight, or the channel would
	// congest forever.
	cfg := Config{ServerToClient: linksim.Config{Loss: 0.5, Duplicate: 0.3, Latency: 5 * ms}, MaxInFlightBytes: 4000, Seed: 1}
	s, c, clk := newPair(t, cfg)
	for i := range 5000 {
		clk.t = time.Duration(i) * ms
		if err := s.Send(transport.Snapshots, make([]byte, 100)); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
		c.Receive(func(transport.Channel, []byte) {})
	}
	if s.out.inflight[transport.Snapshots] < 0 || s.out.inflight[transport.Snapshots] > 4000 {
		t.Fatalf("in flight = %d", s.out.inflight[transport.Snapshots])
	}
}

func TestConfigErrors(t *testing.T) {
	if _, _, err := NewPair(Config{}); !errors.Is(err, ErrConfig) {
		t.Fatalf("nil Now: %v", err)
	}
	now := func() time.Duration { return 0 }
	if _, _, err := NewPair(Config{Now: now, MaxInFlightBytes: -1}); !errors.Is(err, ErrConfig) {
		t.Fatalf("negative limit: %v", err)
	}
	if _, _, err := NewPair(Config{Now: now, ClientToServer: linksim.Config{Loss: 2}}); !errors.Is(err, linksim.ErrConfig) {
		t.Fatalf("bad link: %v", err)
	}
}

func TestBlackoutViaSetLinkConfig(t *testing.T) {
	s, c, clk := newPair(t, Config{})
	if err := s.SetLinkConfig(linksim.Config{Loss: 1}); err != nil {
		t.Fatal(err)
	}
	_ = s.Send(transport.Snapshots, []byte("lost"))
	_ = s.Send(transport.Events, []byte("kept"))
	clk.t = ms
	var got []string
	c.Receive(func(_ transport.Channel, p []byte) { got = append(got, string(p)) })
	if !slices.Equal(got, []string{"kept"}) {
		t.Fatalf("got %q", got)
	}
	if ls := s.LinkStats(); ls.Lost != 1 {
		t.Fatalf("link stats %+v", ls)
	}
}

func TestSteadyStateAllocs(t *testing.T) {
	s, c, clk := newPair(t, Config{
		ServerToClient: linksim.Config{Loss: 0.1, Latency: 20 * ms, Jitter: 5 * ms},
		ClientToServer: linksim.Config{Loss: 0.1, Latency: 20 * ms, Jitter: 5 * ms},
	})
	snap := make([]byte, 1000)
	ev := make([]byte, 64)
	in := make([]byte, 80)
	var sink int
	fn := func(_ transport.Channel, p []byte) { sink += len(p) }
	step := func() {
		clk.t += ms
		_ = s.Send(transport.Snapshots, snap)
		_ = s.Send(transport.Events, ev)
		_ = c.Send(transport.Inputs, in)
		_ = c.Send(transport.Replicas, in)
		s.Receive(fn)
		c.Receive(fn)
	}
	for range 2000 {
		step()
	}
	if a := testing.AllocsPerRun(1000, step); a != 0 {
		t.Fatalf("steady-state Send+Receive allocates %v per step", a)
	}
	if sink == 0 {
		t.Fatal("nothing received")
	}
}

func TestSendFromReceiveCallback(t *testing.T) {
	s, c, clk := newPair(t, Config{})
	_ = s.Send(transport.Inputs, []byte("ping"))
	n := c.Receive(func(ch transport.Channel, p []byte) {
		if err := c.Send(ch, append([]byte("re:"), p...)); err != nil {
			t.Errorf("Send from fn: %v", err)
		}
	})
	if n != 1 {
		t.Fatalf("n = %d", n)
	}
	clk.t = ms
	var got string
	s.Receive(func(_ transport.Channel, p []byte) { got = string(p) })
	if got != "re:ping" {
		t.Fatalf("got %q", got)
	}
}

func BenchmarkSendReceive(b *testing.B) {
	s, c, clk := newPair(b, Config{ServerToClient: linksim.Config{Latency: 20 * ms, Jitter: 5 * ms}})
	snap := make([]byte, 1000)
	fn := func(transport.Channel, []byte) {}
	b.ReportAllocs()
	for b.Loop() {
		clk.t += ms
		_ = s.Send(transport.Snapshots, snap)
		c.Receive(fn)
	}
}
