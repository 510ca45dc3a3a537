package datachan

import (
	"sync"
	"sync/atomic"

	"github.com/sightline-game/sightline/netcode/transport"
)

// Inbox is the receive side of a connection: the network side pushes
// copies of messages as they arrive, the game side drains them in arrival
// order with [Inbox.Receive]. It holds two queues and swaps them, so that a
// push never waits for the game to finish handling what it drained. Safe
// for concurrent use.
type Inbox struct {
	maxLen, maxBytes int

	mu      sync.Mutex
	stopped bool
	seq     uint64
	active  *Queue // filled by Push
	spare   *Queue // drained by Receive

	recvMu sync.Mutex // serializes Receive

	received, receivedBytes, dropped atomic.Uint64
}

// NewInbox returns an inbox bounded by cfg's ReceiveQueueLen and
// ReceiveQueueBytes (cfg's defaults apply).
func NewInbox(cfg Config) *Inbox {
	cfg = cfg.WithDefaults()
	return &Inbox{
		maxLen:   cfg.ReceiveQueueLen,
		maxBytes: cfg.ReceiveQueueBytes,
		active:   &Queue{},
		spare:    &Queue{},
	}
}

// Push queues a copy of p, received on channel ch, dropping the oldest
// unreliable messages if there is no room. It returns false when p is an
// event that found no room even so: events are never dropped, and the
// caller must end the connection ([ErrEventsOverflow]). An unreliable
// message that finds no room is dropped and counted. After Stop, Push
// drops everything and returns true.
func (in *Inbox) Push(ch transport.Channel, p []byte) bool {
	in.mu.Lock()
	if in.stopped {
		in.mu.Unlock()
		return true
	}
	in.seq++
	dropped, ok := in.active.Push(in.seq, ch, p, in.maxLen, in.maxBytes)
	in.mu.Unlock()

	in.received.Add(1)
	in.receivedBytes.Add(uint64(len(p)))
	if dropped > 0 {
		in.dropped.Add(uint64(dropped))
	}
	if !ok {
		if ch.Reliable() {
			return false
		}
		in.dropped.Add(1)
	}
	return true
}

// Stop makes every later Push a no-op. Messages already queued can still
// be received.
func (in *Inbox) Stop() {
	in.mu.Lock()
	in.stopped = true
	in.mu.Unlock()
}

// Receive calls fn for every queued message in arrival order and returns
// how many; p is valid only during fn.
func (in *Inbox) Receive(fn func(ch transport.Channel, p []byte)) int {
	in.recvMu.Lock()
	defer in.recvMu.Unlock()
	in.mu.Lock()
	q := in.active
	in.active, in.spare = in.spare, q
	in.mu.Unlock()
	return q.Drain(fn)
}

// Counts returns the messages and bytes pushed (dropped ones included) and
// the messages dropped for a full queue.
func (in *Inbox) Counts() (messages, bytes, dropped uint64) {
	return in.received.Load(), in.receivedBytes.Load(), in.dropped.Load()
}
