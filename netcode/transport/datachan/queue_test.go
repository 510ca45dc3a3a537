package datachan

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/sightline-game/sightline/netcode/transport"
)

type entry struct {
	ch transport.Channel
	id uint32
}

func collect(q *Queue) []entry {
	var got []entry
	q.Drain(func(ch transport.Channel, p []byte) {
		got = append(got, entry{ch, binary.BigEndian.Uint32(p)})
	})
	return got
}

func pushID(q *Queue, seq *uint64, ch transport.Channel, id uint32, size, maxLen, maxBytes int) (int, bool) {
	p := make([]byte, max(size, 4))
	binary.BigEndian.PutUint32(p, id)
	*seq++
	return q.Push(*seq, ch, p, maxLen, maxBytes)
}

func TestQueueArrivalOrder(t *testing.T) {
	var q Queue
	var seq uint64
	var want []entry
	for i := range uint32(100) {
		ch := transport.Channel(i * 7 % transport.NumChannels)
		pushID(&q, &seq, ch, i, 10, 1000, 1<<20)
		want = append(want, entry{ch, i})
	}
	if got := collect(&q); !slices.Equal(got, want) {
		t.Fatalf("drain order differs from arrival order:\n%v\n%v", got, want)
	}
	if q.n != 0 || q.bytes != 0 {
		t.Fatalf("queue not empty after drain: n=%d bytes=%d", q.n, q.bytes)
	}
}

func TestQueueDropsOldestUnreliable(t *testing.T) {
	var q Queue
	var seq uint64
	const maxLen = 4
	pushID(&q, &seq, transport.Events, 1, 10, maxLen, 1<<20)
	pushID(&q, &seq, transport.Snapshots, 2, 10, maxLen, 1<<20)
	pushID(&q, &seq, transport.Inputs, 3, 10, maxLen, 1<<20)
	pushID(&q, &seq, transport.Events, 4, 10, maxLen, 1<<20)
	// Full: a new snapshot drops the oldest unreliable (2), not the event 1.
	if d, ok := pushID(&q, &seq, transport.Replicas, 5, 10, maxLen, 1<<20); d != 1 || !ok {
		t.Fatalf("push into full queue: dropped %d, ok %v", d, ok)
	}
	// An event drops the next oldest unreliable (3).
	if d, ok := pushID(&q, &seq, transport.Events, 6, 10, maxLen, 1<<20); d != 1 || !ok {
		t.Fatalf("event into full queue: dropped %d, ok %v", d, ok)
	}
	want := []entry{{transport.Events, 1}, {transport.Events, 4}, {transport.Replicas, 5}, {transport.Events, 6}}
	if got := collect(&q); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// Only events: no room can be made.
	for i := range uint32(maxLen) {
		pushID(&q, &seq, transport.Events, i, 10, maxLen, 1<<20)
	}
	if _, ok := pushID(&q, &seq, transport.Events, 99, 10, maxLen, 1<<20); ok {
		t.Fatal("event pushed into a queue full of events")
	}
	if _, ok := pushID(&q, &seq, transport.Snapshots, 99, 10, maxLen, 1<<20); ok {
		t.Fatal("snapshot pushed into a queue full of events")
	}
	if got := collect(&q); len(got) != maxLen {
		t.Fatalf("queue changed by refused pushes: %v", got)
	}
}

func TestQueueByteBound(t *testing.T) {
	var q Queue
	var seq uint64
	for i := range uint32(10) {
		pushID(&q, &seq, transport.Snapshots, i, 1000, 100, 4500)
	}
	got := collect(&q)
	if len(got) != 4 || got[0].id != 6 || got[3].id != 9 {
		t.Fatalf("byte bound kept %v, want the newest four", got)
	}
}

func TestQueueSteadyStateAllocs(t *testing.T) {
	var q Queue
	var seq uint64
	small := make([]byte, 1100)
	ev := make([]byte, 80)
	sink := 0
	fn := func(_ transport.Channel, p []byte) { sink += len(p) }
	step := func() {
		for range 8 {
			seq++
			q.Push(seq, transport.Snapshots, small, 1024, 1<<20)
			seq++
			q.Push(seq, transport.Events, ev, 1024, 1<<20)
		}
		q.Drain(fn)
	}
	step()
	if a := testing.AllocsPerRun(200, step); a != 0 {
		t.Fatalf("push+drain allocates %v per step", a)
	}
	if sink == 0 {
		t.Fatal("nothing drained")
	}
}

// TestInboxReceiveAllocs checks the connection-level path (Push from the
// network side, Receive on the game side) with the double-buffered queues.
func TestInboxReceiveAllocs(t *testing.T) {
	c := NewInbox(Config{})
	p := make([]byte, 900)
	fn := func(transport.Channel, []byte) {}
	step := func() {
		for range 4 {
			c.Push(transport.Snapshots, p)
			c.Push(transport.Events, p[:40])
		}
		c.Receive(fn)
	}
	step()
	step()
	if a := testing.AllocsPerRun(200, step); a != 0 {
		t.Fatalf("push+Receive allocates %v per step", a)
	}
}
