package events_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/linksim"
)

// randomEvent makes event number i with a body that names i.
func randomEvent(rng *rand.Rand, i int) events.Event {
	tick := uint32(i / 3)
	switch rng.IntN(6) {
	case 0:
		return shotEvent(tick, shot{byte(i), byte(rng.IntN(64)), byte(rng.IntN(100))})
	case 1, 2:
		return sayEvent(tick, fmt.Sprintf("line %d %s", i, string(bytes.Repeat([]byte("x"), rng.IntN(200)))))
	case 3:
		return sayEvent(tick, fmt.Sprintf("p%d", i))
	case 4:
		return events.Event{Kind: kindOver, Tick: tick, Body: []byte{byte(i)}}
	}
	return events.Event{Kind: 99, Tick: tick, Body: fmt.Appendf(nil, "custom %d", i)}
}

// frame pushes evs through an outbox and returns the datagrams.
func frame(t *testing.T, evs []events.Event, maxBytes int) [][]byte {
	t.Helper()
	ob := newOutbox(len(evs))
	for _, e := range evs {
		if err := ob.Push(e); err != nil {
			t.Fatal(err)
		}
	}
	var out [][]byte
	for {
		p, n := ob.AppendNext(nil, maxBytes)
		if n == 0 {
			break
		}
		if n > 1 && len(p) > maxBytes {
			t.Fatalf("datagram of %d events is %d bytes, budget %d", n, len(p), maxBytes)
		}
		out = append(out, p)
	}
	if ob.Len() != 0 || ob.NextSeq() != uint32(len(evs))+1 {
		t.Fatalf("outbox left %d events, next seq %d", ob.Len(), ob.NextSeq())
	}
	return out
}

// collector checks that delivered events are exactly evs, in order, once.
type collector struct {
	t    *testing.T
	want []events.Event
	got  int
}

func (c *collector) deliver(e events.Event) {
	if c.got >= len(c.want) {
		c.t.Fatalf("event %d delivered after the last", e.Seq)
	}
	w := c.want[c.got]
	if e.Seq != uint32(c.got+1) || e.Kind != w.Kind || e.Tick != w.Tick || !bytes.Equal(e.Body, w.Body) {
		c.t.Fatalf("delivery %d: seq %d %v, want seq %d %v", c.got, e.Seq, e.Kind, c.got+1, w.Kind)
	}
	c.got++
}

// TestInOrderExactlyOnceWhenShuffled hands datagrams over shuffled within
// blocks (as goroutines racing would) and duplicates some of them.
func TestInOrderExactlyOnceWhenShuffled(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		evs := make([]events.Event, 3000)
		for i := range evs {
			evs[i] = randomEvent(rng, i)
		}
		dgs := frame(t, evs, 400)
		// Shuffle blocks of 16 datagrams (at most a few hundred events
		// apart, inside the window), and hand 20% of them over twice, the
		// copy a few places later.
		var order [][]byte
		for b := 0; b < len(dgs); b += 16 {
			block := append([][]byte(nil), dgs[b:min(b+16, len(dgs))]...)
			rng.Shuffle(len(block), func(i, j int) { block[i], block[j] = block[j], block[i] })
			order = append(order, block...)
		}
		for i := len(order) - 1; i >= 0; i-- {
			if rng.Float64() < 0.2 {
				at := min(len(order), i+1+rng.IntN(4))
				order = append(order[:at], append([][]byte{order[i]}, order[at:]...)...)
			}
		}
		in := newInbox(0)
		c := &collector{t: t, want: evs}
		for _, p := range order {
			if err := in.Handle(p, c.deliver); err != nil {
				t.Fatal(err)
			}
		}
		st := in.Stats()
		if c.got != len(evs) || in.Held() != 0 || st.Delivered != uint64(len(evs)) {
			t.Fatalf("seed %d: delivered %d of %d, %d held", seed, c.got, len(evs), in.Held())
		}
		if st.Duplicates == 0 || st.Early == 0 {
			t.Fatalf("seed %d: run exercised no duplicates or early events: %+v", seed, st)
		}
	}
}

// TestInOrderThroughLinkSim runs the stream through a link that reorders and
// duplicates (but does not lose: the channel is reliable) in simulated time.
func TestInOrderThroughLinkSim(t *testing.T) {
	link, err := linksim.New(linksim.Config{
		Latency: 30 * time.Millisecond, Jitter: 25 * time.Millisecond,
		Reorder: 0.2, ReorderDelay: 80 * time.Millisecond, Duplicate: 0.15,
	}, 7)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	const total = 5000
	evs := make([]events.Event, 0, total)
	ob := newOutbox(0)
	in := newInbox(0)
	c := &collector{t: t}
	buf := make([]byte, 0, 1500)
	const tick = 16 * time.Millisecond
	for k := 0; ; k++ {
		now := time.Duration(k) * tick
		for len(evs) < total && rng.IntN(4) != 0 {
			e := randomEvent(rng, len(evs))
			if err := ob.Push(e); err != nil {
				t.Fatal(err)
			}
			evs = append(evs, e)
			c.want = evs
		}
		for range 4 { // a budget of four datagrams per tick
			p, n := ob.AppendNext(buf[:0], 1200)
			if n == 0 {
				break
			}
			link.Send(now, p)
		}
		link.Deliver(now, func(p []byte) {
			if err := in.Handle(p, c.deliver); err != nil {
				t.Fatal(err)
			}
		})
		if len(evs) == total && ob.Len() == 0 && link.InFlight() == 0 {
			break
		}
	}
	if c.got != total {
		t.Fatalf("delivered %d of %d", c.got, total)
	}
	st := in.Stats()
	if st.Duplicates == 0 || st.Early == 0 {
		t.Fatalf("link did not reorder and duplicate: %+v", st)
	}
	t.Logf("inbox %+v; outbox %+v; link %+v", st, ob.Stats(), link.Stats())
}

func TestOutboxQueueIsBounded(t *testing.T) {
	ob := newOutbox(4)
	e := shotEvent(1, shot{1, 2, 3})
	for range 4 {
		if err := ob.Push(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := ob.Push(e); !errors.Is(err, events.ErrQueueFull) {
		t.Fatalf("fifth push: %v", err)
	}
	if ob.NextSeq() != 5 {
		t.Fatalf("refused event took a sequence number: next %d", ob.NextSeq())
	}
	if _, n := ob.AppendNext(nil, 0); n != 4 {
		t.Fatalf("framed %d of 4", n)
	}
	if err := ob.Push(e); err != nil {
		t.Fatalf("push after draining: %v", err)
	}
	if ob.Stats().Refused != 1 || ob.Stats().Pushed != 5 {
		t.Fatalf("stats %+v", ob.Stats())
	}
}

func TestOutboxRefusesBadEvents(t *testing.T) {
	ob := newOutbox(0)
	for name, e := range map[string]events.Event{
		"kind 0":        {Kind: 0},
		"bad shot body": {Kind: kindShot, Body: []byte{1}},
		"body too long": {Kind: 99, Body: make([]byte, events.MaxBody+1)},
	} {
		if err := ob.Push(e); !errors.Is(err, events.ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if ob.Len() != 0 || ob.NextSeq() != 1 {
		t.Fatal("a refused event was queued")
	}
}

func TestOutboxFramesInOrderWithinBudget(t *testing.T) {
	ob := newOutbox(0)
	big := events.Event{Kind: 99, Body: make([]byte, events.MaxBody)}
	small := shotEvent(1, shot{1, 2, 3})
	for _, e := range []events.Event{small, small, big, small} {
		if err := ob.Push(e); err != nil {
			t.Fatal(err)
		}
	}
	// The big event does not fit behind the small ones: it waits, in order.
	p, n := ob.AppendNext(nil, 600)
	if d, _ := events.ParseDatagram(p, validBody); n != 2 || d.First() != 1 {
		t.Fatalf("first datagram: %d events from %d", n, d.First())
	}
	// Alone it exceeds the budget and goes anyway.
	p, n = ob.AppendNext(nil, 600)
	if d, _ := events.ParseDatagram(p, validBody); n != 1 || d.First() != 3 || len(p) <= 600 {
		t.Fatalf("second datagram: %d events from %d, %d bytes", n, d.First(), len(p))
	}
	// With the default budget any single event fits.
	if p, n = ob.AppendNext(nil, 0); n != 1 || len(p) > events.MaxEventDatagram {
		t.Fatalf("third datagram: %d events, %d bytes", n, len(p))
	}
}

func TestReorderWindowIsBounded(t *testing.T) {
	in := newInbox(8)
	ev := events.Event{Kind: 99}
	// Events 2..8 may wait for event 1; event 9 may not.
	for seq := uint32(8); seq >= 2; seq-- {
		if err := in.Handle(datagram(seq, ev), nil); err != nil {
			t.Fatalf("seq %d: %v", seq, err)
		}
	}
	if err := in.Handle(datagram(9, ev), nil); !errors.Is(err, events.ErrReorderWindow) {
		t.Fatalf("seq 9 with window 8: %v", err)
	}
	// A datagram that reaches past the window is rejected whole.
	if err := in.Handle(datagram(1, ev, ev, ev, ev, ev, ev, ev, ev, ev), nil); !errors.Is(err, events.ErrReorderWindow) {
		t.Fatalf("datagram 1..9: %v", err)
	}
	if in.Held() != 7 || in.Next() != 1 {
		t.Fatalf("%d held, next %d", in.Held(), in.Next())
	}
	var seqs []uint32
	if err := in.Handle(datagram(1, ev), func(e events.Event) { seqs = append(seqs, e.Seq) }); err != nil {
		t.Fatal(err)
	}
	if len(seqs) != 8 || seqs[7] != 8 || in.Held() != 0 || in.Stats().MaxHeld != 7 {
		t.Fatalf("delivered %v, %d held", seqs, in.Held())
	}
	// Now the window has moved on.
	if err := in.Handle(datagram(16, ev), nil); err != nil {
		t.Fatalf("seq 16 with next 9: %v", err)
	}
}

// TestEventsAreNotState: between two snapshots a player is hit for 10 and
// healed for 10. The two states are equal, so a state diff shows nothing;
// the shot event still reaches the client.
func TestEventsAreNotState(t *testing.T) {
	type world map[uint32]int // entity -> health
	diff := func(a, b world) []uint32 {
		var changed []uint32
		for id, hp := range b {
			if a[id] != hp {
				changed = append(changed, id)
			}
		}
		return changed
	}
	const player, shooter = 7, 3
	w := world{player: 100, shooter: 100}
	ob := newOutbox(0)
	snapshot := func() world {
		s := world{}
		for k, v := range w {
			s[k] = v
		}
		return s
	}

	before := snapshot() // tick 10's snapshot
	w[player] -= 10      // tick 11: hit
	if err := ob.Push(shotEvent(11, shot{shooter, player, 10})); err != nil {
		t.Fatal(err)
	}
	w[player] += 10 // tick 12: picks up a med kit
	after := snapshot()

	if changed := diff(before, after); len(changed) != 0 {
		t.Fatalf("state diff shows %v", changed)
	}
	in := newInbox(0)
	p, _ := ob.AppendNext(nil, 0)
	var hits []shot
	if err := in.Handle(p, func(e events.Event) {
		if e.Kind == kindShot {
			h, err := parseShot(e.Body)
			if err != nil {
				t.Fatal(err)
			}
			hits = append(hits, h)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0] != (shot{shooter, player, 10}) {
		t.Fatalf("hits delivered: %+v", hits)
	}
}

func TestResetStartsANewStream(t *testing.T) {
	ob, in := newOutbox(0), newInbox(0)
	e := events.Event{Kind: 99}
	for range 3 {
		ob.Push(e)
	}
	p, _ := ob.AppendNext(nil, 0)
	in.Handle(p, nil)
	in.Handle(datagram(10, e), nil)
	ob.Reset()
	in.Reset()
	ob.Push(e)
	p, _ = ob.AppendNext(nil, 0)
	n := 0
	if err := in.Handle(p, func(ev events.Event) { n++ }); err != nil || n != 1 || in.Next() != 2 || in.Held() != 0 {
		t.Fatalf("after Reset: %v, %d delivered, next %d", err, n, in.Next())
	}
}

func TestSteadyStateAllocatesNothing(t *testing.T) {
	ob, in := newOutbox(0), newInbox(0)
	bodies := [][]byte{
		appendShot(nil, shot{1, 2, 30}),
		[]byte("nice shot"),
	}
	buf := make([]byte, 0, 1500)
	var held []byte
	tick := uint32(0)
	step := func() {
		tick++
		for i := range 6 {
			k := kindShot
			if i%3 == 2 {
				k = kindSay
			}
			if err := ob.Push(events.Event{Kind: k, Tick: tick, Body: bodies[i%3/2]}); err != nil {
				t.Fatal(err)
			}
		}
		// Two datagrams, handed over swapped: the first is held early.
		p, n := ob.AppendNext(buf[:0], 25)
		if n == 0 || n == 6 {
			t.Fatalf("%d of 6 events in the first datagram", n)
		}
		held = append(held[:0], p...)
		q, _ := ob.AppendNext(buf[:0], 0)
		if err := in.Handle(q, nil); err != nil {
			t.Fatal(err)
		}
		if err := in.Handle(held, nil); err != nil {
			t.Fatal(err)
		}
		if in.Held() != 0 {
			t.Fatal("events left held")
		}
	}
	for range 400 { // the queue and window rings go round several times
		step()
	}
	if n := testing.AllocsPerRun(200, step); n != 0 {
		t.Fatalf("%v allocations per tick", n)
	}
}

// BenchmarkStream measures pushing, framing and delivering 8 events per op
// (two datagrams, the second handed over first).
func BenchmarkStream(b *testing.B) {
	ob, in := newOutbox(0), newInbox(0)
	body := appendShot(nil, shot{12, 40, 25})
	buf := make([]byte, 0, 1500)
	held := make([]byte, 0, 1500)
	b.ReportAllocs()
	bytes := 0
	for b.Loop() {
		for range 8 {
			if err := ob.Push(events.Event{Kind: kindShot, Tick: 100, Body: body}); err != nil {
				b.Fatal(err)
			}
		}
		p, _ := ob.AppendNext(buf[:0], 40)
		held = append(held[:0], p...)
		q, _ := ob.AppendNext(buf[:0], 0)
		bytes += len(held) + len(q)
		if err := in.Handle(q, nil); err != nil {
			b.Fatal(err)
		}
		if err := in.Handle(held, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(bytes)/float64(b.N)/8, "B/event")
}
