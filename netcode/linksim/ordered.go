package linksim

import "time"

// Ordered is the reliable counterpart of a Link: a queue of messages, each
// due at a time that never decreases along the queue, so a message never
// overtakes an earlier one, even when the latency is lowered midway. It
// models a reliable ordered channel's delay without loss. Buffers are
// reused: a warmed-up queue allocates nothing. The zero Ordered is ready.
type Ordered struct {
	slots   []orderedSlot
	head, n int
	lastAt  time.Duration
}

type orderedSlot struct {
	at  time.Duration
	buf []byte
}

// Push queues a copy of p, due at at (or at the last message's due time,
// if that is later).
func (q *Ordered) Push(at time.Duration, p []byte) {
	if q.n > 0 && at < q.lastAt {
		at = q.lastAt
	}
	q.lastAt = at
	if q.n == len(q.slots) {
		old := q.slots
		q.slots = make([]orderedSlot, max(8, 2*len(old)))
		for i := range q.n {
			q.slots[i] = old[(q.head+i)%len(old)]
		}
		q.head = 0
	}
	s := &q.slots[(q.head+q.n)%len(q.slots)]
	s.at = at
	s.buf = append(s.buf[:0], p...)
	q.n++
}

// Len returns the number of queued messages.
func (q *Ordered) Len() int { return q.n }

// Next returns the first message's due time, if any.
func (q *Ordered) Next() (time.Duration, bool) {
	if q.n == 0 {
		return 0, false
	}
	return q.slots[q.head].at, true
}

// Front returns the first message; it is valid until the next Push or Pop.
func (q *Ordered) Front() []byte { return q.slots[q.head].buf }

// Pop removes the first message.
func (q *Ordered) Pop() {
	q.head = (q.head + 1) % len(q.slots)
	q.n--
}

// Reset empties the queue, keeping its buffers.
func (q *Ordered) Reset() { q.head, q.n = 0, 0 }
