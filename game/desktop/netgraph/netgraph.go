// Package netgraph keeps the numbers the network overlay shows: the sizes of
// the last snapshots next to the size a full snapshot would have had, rates
// over the last second, snapshot loss and the input round trip. It knows
// nothing of drawing or of the transport: the game feeds it counters.
package netgraph

import "time"

// HistoryLen is how many snapshots the bar chart shows.
const HistoryLen = 120

// Sample is one decoded snapshot.
type Sample struct {
	Size     int  // bytes of its datagram
	Full     int  // bytes a full snapshot of the same view would take
	Entities int  // entities in view after decoding it
	Delta    bool // encoded against a baseline
}

// History is a ring of the newest HistoryLen samples.
type History struct {
	s    [HistoryLen]Sample
	head int // index of the oldest
	n    int
}

// Push adds the newest sample, dropping the oldest when full.
func (h *History) Push(s Sample) {
	if h.n < HistoryLen {
		h.s[(h.head+h.n)%HistoryLen] = s
		h.n++
		return
	}
	h.s[h.head] = s
	h.head = (h.head + 1) % HistoryLen
}

// Len returns the number of samples held.
func (h *History) Len() int { return h.n }

// At returns sample i, 0 the oldest.
func (h *History) At(i int) Sample { return h.s[(h.head+i)%HistoryLen] }

// Max returns the largest Size or Full held (at least 1), for scaling a chart.
func (h *History) Max() int {
	m := 1
	for i := range h.n {
		s := h.At(i)
		m = max(m, s.Size, s.Full)
	}
	return m
}

// Mean returns the mean Size and Full of the samples held.
func (h *History) Mean() (size, full float64) {
	if h.n == 0 {
		return 0, 0
	}
	var a, b int
	for i := range h.n {
		s := h.At(i)
		a += s.Size
		b += s.Full
	}
	return float64(a) / float64(h.n), float64(b) / float64(h.n)
}

// Series turns a growing counter into its rate over the last Span.
type Series struct {
	Span time.Duration
	pts  []point
}

type point struct {
	at time.Time
	v  float64
}

// Add records the counter's total at time at.
func (s *Series) Add(at time.Time, total float64) {
	s.pts = append(s.pts, point{at, total})
	// Keep one point older than the span, so the window always covers it.
	i := 0
	for i+1 < len(s.pts) && at.Sub(s.pts[i+1].at) >= s.Span {
		i++
	}
	if i > 0 {
		n := copy(s.pts, s.pts[i:])
		s.pts = s.pts[:n]
	}
}

// Delta returns how much the counter grew over the window and how long the
// window is (at most a little over Span).
func (s *Series) Delta() (float64, time.Duration) {
	if len(s.pts) < 2 {
		return 0, 0
	}
	a, b := s.pts[0], s.pts[len(s.pts)-1]
	return b.v - a.v, b.at.Sub(a.at)
}

// PerSecond returns the counter's growth per second over the window.
func (s *Series) PerSecond() float64 {
	d, dt := s.Delta()
	if dt <= 0 {
		return 0
	}
	return d / dt.Seconds()
}

// Loss estimates the share of snapshots lost on the way down: the server
// sends one per tick, so over a window the ticks the newest snapshot
// advanced by are what was sent, and the datagrams taken are what arrived.
type Loss struct {
	ticks, got Series
}

// NewLoss returns a loss estimate over span.
func NewLoss(span time.Duration) *Loss {
	return &Loss{ticks: Series{Span: span}, got: Series{Span: span}}
}

// Add records the newest tick and the count of snapshot datagrams taken.
func (l *Loss) Add(at time.Time, newestTick uint32, datagrams uint64) {
	l.ticks.Add(at, float64(newestTick))
	l.got.Add(at, float64(datagrams))
}

// Share returns the lost share, 0..1.
func (l *Loss) Share() float64 {
	sent, _ := l.ticks.Delta()
	got, _ := l.got.Delta()
	if sent <= 0 {
		return 0
	}
	return min(max(1-got/sent, 0), 1)
}

// RoundTrip measures how long an input takes to come back as applied in a
// snapshot: from sending input seq to decoding the first snapshot whose
// server had applied it. It includes the wait for the server's next tick,
// which a ping would not.
type RoundTrip struct {
	sent    [128]sentInput
	acked   uint32
	hasAck  bool
	smooth  time.Duration
	samples int
}

type sentInput struct {
	seq uint32
	at  time.Time
}

// Sent records that input seq left at time at.
func (r *RoundTrip) Sent(seq uint32, at time.Time) {
	r.sent[seq%uint32(len(r.sent))] = sentInput{seq, at}
}

// Applied records that a snapshot decoded at time at says the server has
// applied input seq. Only the first news of each newer input is measured.
func (r *RoundTrip) Applied(seq uint32, at time.Time) {
	if r.hasAck && int32(seq-r.acked) <= 0 {
		return
	}
	r.acked, r.hasAck = seq, true
	s := r.sent[seq%uint32(len(r.sent))]
	if s.seq != seq || s.at.IsZero() || at.Before(s.at) {
		return
	}
	rtt := at.Sub(s.at)
	if r.samples == 0 {
		r.smooth = rtt
	} else {
		r.smooth += (rtt - r.smooth) / 8
	}
	r.samples++
}

// Value returns the smoothed round trip, and false before the first.
func (r *RoundTrip) Value() (time.Duration, bool) { return r.smooth, r.samples > 0 }
