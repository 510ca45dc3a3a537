package snapstream_test

import (
	"errors"
	"runtime"
	"testing"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

var schema = snapshot.MustSchema(8, 2, 0,
	snapshot.Field{Name: "x", Bits: 16}, snapshot.Field{Name: "y", Bits: 16})

// world returns n entities at (base+i, base) with entity 0 at x = x0.
func world(t testing.TB, n int, x0 uint32) *snapshot.Snapshot {
	s := snapshot.New(schema)
	for i := range n {
		x := uint32(100 + i)
		if i == 0 {
			x = x0
		}
		if err := s.Append(snapshot.EntityID{Index: uint16(i)}, x, 100); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func pair(history int) (*snapstream.Sender, *snapstream.Receiver) {
	return snapstream.NewSender(delta.MustCodec(schema), schema, history),
		snapstream.NewReceiver(delta.MustCodec(schema), schema, history)
}

func TestSenderChoosesBaseline(t *testing.T) {
	s, _ := pair(4)
	w := world(t, 50, 0)
	_, why := s.Append(nil, 1, w)
	if why != snapstream.FullNoAck {
		t.Fatalf("first packet: %v, want FullNoAck", why)
	}
	s.Ack(1)
	_, why = s.Append(nil, 2, world(t, 50, 1))
	if why != snapstream.SentDelta {
		t.Fatalf("after an ack: %v, want a delta", why)
	}
	s.Append(nil, 3, world(t, 50, 2))
	s.Append(nil, 4, world(t, 50, 3))
	s.Append(nil, 5, world(t, 50, 4))
	if _, why = s.Append(nil, 6, world(t, 50, 5)); why != snapstream.FullTooOld {
		t.Fatalf("ack 5 ticks old with history 4: %v, want FullTooOld", why)
	}
	s.Ack(6)
	// Everything changes: the delta is not smaller than the full snapshot.
	all := snapshot.New(schema)
	for i := range 50 {
		all.Append(snapshot.EntityID{Index: uint16(i), Generation: 1}, uint32(9000+i*7), 5)
	}
	if _, why = s.Append(nil, 7, all); why != snapstream.FullNotSmaller {
		t.Fatalf("everything replaced: %v, want FullNotSmaller", why)
	}
	st := s.Stats()
	if st.Packets != 7 || st.Deltas != 4 || st.FullNoAck != 1 || st.FullTooOld != 1 || st.FullNotSmaller != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestAckNeverGoesBackwards(t *testing.T) {
	s, _ := pair(8)
	for tick := uint32(1); tick <= 5; tick++ {
		s.Append(nil, tick, world(t, 5, tick))
	}
	for _, c := range []struct{ ack, want uint32 }{{3, 3}, {2, 3}, {3, 3}, {5, 5}, {4, 5}, {99, 5}, {0, 5}} {
		s.Ack(c.ack)
		if s.AckedTick() != c.want {
			t.Fatalf("after ack %d: acked %d, want %d", c.ack, s.AckedTick(), c.want)
		}
	}
	s.Reset()
	if s.AckedTick() != 0 {
		t.Fatal("Reset must forget acks")
	}
	if _, why := s.Append(nil, 6, world(t, 5, 6)); why != snapstream.FullNoAck {
		t.Fatalf("after Reset: %v, want FullNoAck", why)
	}
}

func TestReceiverDecodesOntoNamedBaseline(t *testing.T) {
	s, r := pair(8)
	p1, _ := s.Append(nil, 1, world(t, 10, 0))
	if _, err := r.Receive(p1); err != nil {
		t.Fatal(err)
	}
	s.Ack(1)
	// Tick 2 is lost; tick 3 is a delta against 1, which the client holds.
	s.Append(nil, 2, world(t, 10, 50))
	p3, _ := s.Append(nil, 3, world(t, 10, 0))
	h, err := r.Receive(p3)
	if err != nil || h.Tick != 3 || h.Baseline != 1 {
		t.Fatalf("tick 3: %+v %v", h, err)
	}
	if got := r.Snapshot(3); !got.Equal(world(t, 10, 0)) {
		t.Fatal("tick 3 decoded wrong")
	}
	if r.Newest() != 3 {
		t.Fatalf("newest %d", r.Newest())
	}
}

func TestReceiverRejectsWithoutChange(t *testing.T) {
	s, r := pair(4)
	p1, _ := s.Append(nil, 1, world(t, 10, 0))
	r.Receive(p1)
	s.Ack(1)
	p2, _ := s.Append(nil, 2, world(t, 10, 1))
	p3, _ := s.Append(nil, 3, world(t, 10, 2))
	if _, err := r.Receive(p3); err != nil {
		t.Fatal(err)
	}
	// Stale: tick 2 arrives after 3.
	if _, err := r.Receive(p2); !errors.Is(err, snapstream.ErrStale) {
		t.Fatalf("late packet: %v, want ErrStale", err)
	}
	// A delta against a tick the receiver never decoded.
	other, _ := pair(4)
	other.Append(nil, 4, world(t, 10, 7))
	other.Ack(4)
	q, _ := other.Append(nil, 5, world(t, 10, 8))
	if _, err := r.Receive(q); !errors.Is(err, snapstream.ErrNoBaseline) {
		t.Fatalf("unknown baseline: %v, want ErrNoBaseline", err)
	}
	// Garbage, and a newer delta cut short.
	if _, err := r.Receive([]byte{0x00, 0xff}); !errors.Is(err, snapstream.ErrDecode) {
		t.Fatalf("garbage: %v, want ErrDecode", err)
	}
	s.Ack(3)
	p4, _ := s.Append(nil, 4, world(t, 10, 3))
	if _, err := r.Receive(p4[:len(p4)-1]); !errors.Is(err, snapstream.ErrDecode) {
		t.Fatalf("truncated packet: %v, want ErrDecode", err)
	}
	if r.Newest() != 3 || !r.Snapshot(3).Equal(world(t, 10, 2)) || r.Snapshot(1) == nil {
		t.Fatal("a rejected packet changed the receiver")
	}
	st := r.Stats()
	if st.Decoded != 2 || st.Stale != 1 || st.NoBaseline != 1 || st.Malformed != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestSteadyStateAllocatesNothing(t *testing.T) {
	s, r := pair(16)
	worlds := []*snapshot.Snapshot{world(t, 200, 1), world(t, 200, 2), world(t, 200, 3)}
	buf := make([]byte, 0, 4096)
	tick := uint32(0)
	step := func() {
		tick++
		p, _ := s.Append(buf[:0], tick, worlds[tick%3])
		if _, err := r.Receive(p); err != nil {
			t.Fatal(err)
		}
		s.Ack(r.Newest())
	}
	for range 40 {
		step()
	}
	if n := testing.AllocsPerRun(200, step); n != 0 {
		t.Fatalf("%v allocations per tick, want 0", n)
	}
}

// After Reserve, a receiver decodes views up to the reserved size, in every
// slot of its ring, without allocating; without it, the first such views
// grow its snapshots.
func TestReserveDecodesWithoutAllocating(t *testing.T) {
	const n, history = 200, 4
	// Full snapshots of n entities, one per tick, every slot of the ring used.
	var packets [][]byte
	s, _ := pair(history)
	for tick := uint32(1); tick <= 2*(history+1); tick++ {
		p, _ := s.Append(nil, tick, world(t, n, tick))
		packets = append(packets, p)
	}
	// The first packet grows the codec's own scratch, once per receiver;
	// the others go to the ring's other snapshots.
	decodeAll := func(r *snapstream.Receiver) uint64 {
		if _, err := r.Receive(packets[0]); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for _, p := range packets[1:] {
			if _, err := r.Receive(p); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		return after.Mallocs - before.Mallocs
	}
	_, grown := pair(history)
	_, reserved := pair(history)
	reserved.Reserve(n)
	if a := decodeAll(grown); a == 0 {
		t.Errorf("without Reserve, decoding %d-entity views allocated nothing: the test does not test", n)
	}
	if a := decodeAll(reserved); a != 0 {
		t.Errorf("after Reserve(%d), decoding %d-entity views allocated %d times", n, n, a)
	}
}
