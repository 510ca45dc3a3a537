package linksim

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"time"
)

// pcgStream is the second PCG seed word; the caller's seed is the first.
const pcgStream = 0x9e3779b97f4a7c15

// Stats counts what happened to the packets given to a [Link]. For a link
// whose Deliver callbacks have all returned,
//
//	Sent = Lost + Dropped + (originals delivered) + (originals in flight)
//	Delivered + InFlight() = Sent - Lost - Dropped + Duplicated
type Stats struct {
	Sent       uint64 // calls to Send
	Lost       uint64 // packets lost by the loss model
	Duplicated uint64 // extra copies scheduled by the duplication model
	Delivered  uint64 // packets (copies included) handed to a Deliver callback
	Dropped    uint64 // packets dropped because MaxQueue packets were in flight
}

// packet is one in-flight datagram.
type packet struct {
	at  time.Duration // arrival time
	seq uint64        // schedule order; breaks arrival-time ties
	buf []byte        // owned copy of the payload
}

func (a *packet) before(b *packet) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// Link is a seeded, deterministic simulation of one direction of an
// unreliable datagram link. Create one with [New]. A Link is not safe for
// concurrent use.
type Link struct {
	cfg  Config // validated, defaults applied
	loss lossModel
	rng  *rand.PCG

	seq     uint64   // next packet sequence number
	heap    []packet // min-heap by (at, seq)
	free    [][]byte // reusable payload buffers
	maxSize int      // largest payload seen; new buffers get this capacity

	// Deliver state: packets taken off the heap for the current call.
	batch      []packet
	next       int // batch[:next] have been handed to fn
	done       int // batch[:done] have had their buffers freed
	delivering bool

	stats Stats
}

// New returns a Link with configuration cfg whose randomness is seeded by
// seed. It fails, with an error wrapping [ErrConfig], if cfg is invalid.
func New(cfg Config, seed uint64) (*Link, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	l := &Link{rng: rand.NewPCG(seed, pcgStream)}
	l.apply(cfg)
	return l, nil
}

func (l *Link) apply(cfg Config) {
	l.cfg = cfg.withDefaults()
	l.loss.configure(cfg.Loss, cfg.BurstLen)
}

// SetConfig changes the link's behaviour from the next Send on, for example
// to simulate a blackout (Loss 1) and its end (Loss 0). It keeps the random
// generator, the loss chain's current state and every in-flight packet with
// its already-chosen arrival time. Lowering MaxQueue below InFlight drops
// nothing already in flight; new packets are dropped until the link drains.
// An invalid cfg is rejected with an error wrapping [ErrConfig] and the link
// is left unchanged.
func (l *Link) SetConfig(cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	l.apply(cfg)
	return nil
}

// Config returns the link's current configuration with defaults filled in
// (ReorderDelay, MaxQueue).
func (l *Link) Config() Config { return l.cfg }

// Stats returns the link's counters so far.
func (l *Link) Stats() Stats { return l.stats }

// InFlight returns how many packets (duplicates included) have been
// scheduled but not yet handed to a Deliver callback.
func (l *Link) InFlight() int { return len(l.heap) + len(l.batch) - l.next }

// NextArrival returns the arrival time of the earliest in-flight packet, and
// false if nothing is in flight. Calling Deliver with that time delivers at
// least that packet.
func (l *Link) NextArrival() (time.Duration, bool) {
	var at time.Duration
	ok := false
	if len(l.heap) > 0 {
		at, ok = l.heap[0].at, true
	}
	if l.next < len(l.batch) {
		if b := l.batch[l.next].at; !ok || b < at {
			at, ok = b, true
		}
	}
	return at, ok
}

// Send puts a copy of p on the link at simulated time now; the caller may
// reuse p as soon as Send returns. The loss chain advances once per call.
// A packet that survives it gets arrival time now + Latency + jitter (+
// ReorderDelay if chosen for reordering), unless MaxQueue packets are
// already in flight, in which case it is dropped. A surviving packet may
// also be duplicated.
func (l *Link) Send(now time.Duration, p []byte) {
	// Always five draws, in this order, so the random stream stays aligned
	// across configurations.
	uLoss := l.rng.Uint64()
	uJitter := l.rng.Uint64()
	uReorder := l.rng.Uint64()
	uDup := l.rng.Uint64()
	uDupJitter := l.rng.Uint64()

	l.stats.Sent++
	if l.loss.lose(unit(uLoss)) {
		l.stats.Lost++
		return
	}
	if l.InFlight() >= l.cfg.MaxQueue {
		l.stats.Dropped++
		return
	}
	d := l.cfg.Latency + scale(uJitter, l.cfg.Jitter)
	if unit(uReorder) < l.cfg.Reorder {
		d += l.cfg.ReorderDelay
	}
	l.schedule(now, d, p)
	if unit(uDup) < l.cfg.Duplicate && l.InFlight() < l.cfg.MaxQueue {
		l.stats.Duplicated++
		l.schedule(now, l.cfg.Latency+scale(uDupJitter, l.cfg.Jitter), p)
	}
}

// Deliver calls fn for every in-flight packet whose arrival time is <= now,
// in arrival order, ties broken by send order (a duplicate counts as sent
// right after its original), and returns how many it delivered. p is valid
// only during the call to fn; copy it to keep it. A nil fn discards the
// packets (they still count as delivered).
//
// fn may call Send on this or any other link, and Deliver on other links.
// Packets sent from inside fn are not delivered by this call even if they
// are already due; the next Deliver picks them up. fn must not call Deliver
// on the same link: that panics. If fn panics, the packets not yet handed
// to it stay in flight.
func (l *Link) Deliver(now time.Duration, fn func(p []byte)) int {
	if l.delivering {
		panic("linksim: Deliver called on a link from within its own Deliver callback")
	}
	for len(l.heap) > 0 && l.heap[0].at <= now {
		l.batch = append(l.batch, l.pop())
	}
	n := len(l.batch)
	if n == 0 {
		return 0
	}
	l.delivering = true
	defer l.finishDeliver()
	for l.next < n {
		buf := l.batch[l.next].buf
		l.next++
		l.stats.Delivered++
		if fn != nil {
			fn(buf)
		}
		l.free = append(l.free, buf)
		l.done = l.next
	}
	return n
}

// finishDeliver ends a Deliver call. After a normal return everything is
// already delivered and freed; after a panic in fn it frees the buffer that
// was being delivered and puts undelivered packets back in flight.
func (l *Link) finishDeliver() {
	for i := l.done; i < len(l.batch); i++ {
		if i < l.next {
			l.free = append(l.free, l.batch[i].buf)
		} else {
			l.push(l.batch[i])
		}
	}
	clear(l.batch)
	l.batch = l.batch[:0]
	l.next, l.done = 0, 0
	l.delivering = false
}

// schedule copies p into a pooled buffer and puts it in flight, due at
// now+d (saturating at the largest Duration).
func (l *Link) schedule(now, d time.Duration, p []byte) {
	buf := l.buffer(len(p))
	copy(buf, p)
	at := now + d
	if d > 0 && at < now {
		at = math.MaxInt64
	}
	l.push(packet{at: at, seq: l.seq, buf: buf})
	l.seq++
}

// buffer returns a buffer of length n from the free list, allocating only if
// the list is empty or its top buffer is too small. New buffers get the
// capacity of the largest packet seen so far, so buffer sizes converge.
func (l *Link) buffer(n int) []byte {
	l.maxSize = max(l.maxSize, n)
	if k := len(l.free); k > 0 {
		b := l.free[k-1]
		l.free[k-1] = nil
		l.free = l.free[:k-1]
		if cap(b) >= n {
			return b[:n]
		}
	}
	return make([]byte, n, l.maxSize)
}

func (l *Link) push(p packet) {
	l.heap = append(l.heap, p)
	h := l.heap
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !h[i].before(&h[parent]) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (l *Link) pop() packet {
	h := l.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h[last] = packet{}
	h = h[:last]
	l.heap = h
	i := 0
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if r := c + 1; r < len(h) && h[r].before(&h[c]) {
			c = r
		}
		if !h[c].before(&h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	return top
}

// unit maps a 64-bit draw to [0, 1) with 53 bits of precision, so that
// u < 1 always holds and u < 0 never does.
func unit(u uint64) float64 { return float64(u>>11) * 0x1p-53 }

// scale maps a 64-bit draw to [0, limit] (inclusive) by a 128-bit
// multiply; the bias is below limit/2^64, far under a nanosecond's worth.
func scale(u uint64, limit time.Duration) time.Duration {
	if limit <= 0 {
		return 0
	}
	hi, _ := bits.Mul64(u, uint64(limit)+1)
	return time.Duration(hi)
}
