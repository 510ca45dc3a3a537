package datachan

import "github.com/sightline-game/sightline/netcode/transport"

// retainCap is the largest slot buffer the receive queue keeps for reuse.
// Snapshots and inputs (under 1200 bytes) are always pooled; the rare larger
// event or record gets a buffer of its own.
const retainCap = 2048

// Queue holds received messages in arrival order: one FIFO ring per
// channel, each message stamped with a sequence number so that draining
// merges the rings back into arrival order and the oldest unreliable message
// is found in O(1). Slot buffers stay with their slots and are reused.
// Not safe for concurrent use; [Inbox] guards it.
type Queue struct {
	rings [transport.NumChannels]ring
	n     int // messages held
	bytes int // payload bytes held
}

type ring struct {
	slots   []slot
	head, n int
}

type slot struct {
	seq uint64
	buf []byte
}

func (r *ring) push(seq uint64, p []byte) {
	if r.n == len(r.slots) {
		old := r.slots
		r.slots = make([]slot, max(16, 2*len(old)))
		for i := range r.n {
			r.slots[i] = old[(r.head+i)%len(old)]
		}
		r.head = 0
	}
	s := &r.slots[(r.head+r.n)%len(r.slots)]
	s.seq = seq
	if cap(s.buf) < len(p) {
		s.buf = make([]byte, len(p), max(len(p), 256))
	}
	s.buf = s.buf[:len(p)]
	copy(s.buf, p)
	r.n++
}

func (r *ring) front() *slot { return &r.slots[r.head] }

func (r *ring) pop() {
	s := &r.slots[r.head]
	if cap(s.buf) > retainCap {
		s.buf = nil
	}
	r.head = (r.head + 1) % len(r.slots)
	r.n--
}

// Push appends a copy of p, the message numbered seq (numbers grow with
// arrival) on channel ch, dropping the oldest unreliable messages while the
// queue holds maxLen messages or p would take it over maxBytes. It returns false, leaving the queue unchanged,
// when there is no room even after dropping every unreliable message; the
// caller decides what that means.
func (q *Queue) Push(seq uint64, ch transport.Channel, p []byte, maxLen, maxBytes int) (dropped int, ok bool) {
	for q.n >= maxLen || q.bytes+len(p) > maxBytes {
		if !q.dropOldestUnreliable() {
			return dropped, false
		}
		dropped++
	}
	q.rings[ch].push(seq, p)
	q.n++
	q.bytes += len(p)
	return dropped, true
}

// dropOldestUnreliable drops the oldest message of the unreliable channels.
func (q *Queue) dropOldestUnreliable() bool {
	best := -1
	var bestSeq uint64
	for ch := range transport.Channel(transport.NumChannels) {
		r := &q.rings[ch]
		if ch.Reliable() || r.n == 0 {
			continue
		}
		if s := r.front().seq; best < 0 || s < bestSeq {
			best, bestSeq = int(ch), s
		}
	}
	if best < 0 {
		return false
	}
	r := &q.rings[best]
	q.bytes -= len(r.front().buf)
	q.n--
	r.pop()
	return true
}

// Drain calls fn for every message in arrival order and empties the queue.
func (q *Queue) Drain(fn func(transport.Channel, []byte)) int {
	n := 0
	for q.n > 0 {
		best := -1
		var bestSeq uint64
		for ch := range q.rings {
			r := &q.rings[ch]
			if r.n == 0 {
				continue
			}
			if s := r.front().seq; best < 0 || s < bestSeq {
				best, bestSeq = ch, s
			}
		}
		// Pop before calling fn: buf stays valid, since nothing pushes to
		// this queue while it is being drained, and a panicking fn leaves
		// the queue consistent.
		r := &q.rings[best]
		buf := r.front().buf
		q.n--
		q.bytes -= len(buf)
		r.pop()
		n++
		fn(transport.Channel(best), buf)
	}
	return n
}
