package linksim

import (
	"testing"
	"time"
)

func TestOrderedKeepsOrder(t *testing.T) {
	var q Ordered
	if _, ok := q.Next(); ok {
		t.Fatal("empty queue has a next")
	}
	for i := range 20 {
		at := 100 * time.Millisecond
		if i >= 10 {
			at = 10 * time.Millisecond // the latency dropped: later messages must still wait
		}
		q.Push(at, []byte{byte(i)})
	}
	for i := range 20 {
		at, ok := q.Next()
		if !ok || at != 100*time.Millisecond || q.Front()[0] != byte(i) {
			t.Fatalf("message %d: at %v ok %v front %v", i, at, ok, q.Front())
		}
		q.Pop()
	}
	if q.Len() != 0 {
		t.Fatal("not empty")
	}
	buf := []byte{1, 2, 3}
	q.Push(0, buf)
	buf[0] = 9
	if q.Front()[0] != 1 {
		t.Fatal("Push must copy")
	}
	q.Pop()
	if n := testing.AllocsPerRun(100, func() { q.Push(time.Second, buf); q.Pop() }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
