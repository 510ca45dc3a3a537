package broadcast

import (
	"slices"

	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// A Sink takes each chunk a Writer completes, in order: keyframe n comes
// before deltas n's parts, which come before deltas n. b is the sink's own
// (the Writer keeps no reference).
type Sink interface {
	Chunk(h Header, b []byte)
}

// DefaultFragmentTicks is the default length of a fragment: 3 s at 30 Hz.
const DefaultFragmentTicks = 90

// DefaultPartTicks is the default length of a fragment's parts: 0.5 s at
// 30 Hz, six to a fragment.
const DefaultPartTicks = 15

// WriterConfig sets up a Writer.
type WriterConfig struct {
	// Format encodes the world's snapshots: the game's own snapstream
	// format, a Writer's alone (formats keep scratch).
	Format snapstream.Format
	// Schema is the snapshots' schema.
	Schema *snapshot.Schema
	// FragmentTicks is how many ticks a fragment of deltas holds (default
	// DefaultFragmentTicks).
	FragmentTicks int
	// PartTicks is how many ticks a part of a fragment holds (default
	// DefaultPartTicks; negative: no parts): a live viewer takes each part
	// as soon as it is published rather than waiting for the whole
	// fragment, so that it follows the match by the delay and a part, not
	// the delay and a fragment. A fragment's last part may be shorter.
	PartTicks int
	// Preamble is what a viewer must know before its first tick (at most
	// MaxPreamble bytes): every keyframe carries it.
	Preamble []byte
	// Sinks take each chunk once complete.
	Sinks []Sink
}

// Writer turns a match into chunks: each tick's world (Tick), the records
// that changed and the events that happened on it (Record and Event,
// called before that tick's Tick). One goroutine drives it. Its per-tick
// path allocates nothing in steady state; each chunk is allocated once,
// for its sinks.
type Writer struct {
	cfg WriterConfig

	prev     *snapshot.Snapshot // the world at prevTick
	prevTick uint32
	started  bool

	live  map[uint32]*liveRecord // every live record, for keyframes
	order []uint32               // scratch: live ids in order

	frame   Frame  // the tick being gathered: its records and events
	payload []byte // the frame's record payloads and event bodies
	recRefs []span // where each record's payload is in payload
	evRefs  []span // where each event's body is in payload

	number uint32 // of the open fragment
	first  uint32 // its first tick
	count  int    // its frames so far
	body   []byte // its frames' bytes

	part      int // the open part's place in the fragment
	partStart int // its first frame's place in the fragment
	partFrom  int // where its frames' bytes start in body

	snap  []byte // scratch: one snapshot packet
	stats WriterStats
}

type liveRecord struct {
	gen     uint16
	payload []byte
}

type span struct{ from, to int }

// WriterStats are a Writer's counters.
type WriterStats struct {
	Ticks, Keyframes, Fragments, Parts uint64
	// Bytes counts the bytes of every chunk written.
	Bytes uint64
}

// NewWriter returns a Writer with cfg.
func NewWriter(cfg WriterConfig) *Writer {
	if cfg.FragmentTicks <= 0 {
		cfg.FragmentTicks = DefaultFragmentTicks
	}
	if cfg.PartTicks == 0 {
		cfg.PartTicks = DefaultPartTicks
	}
	if len(cfg.Preamble) > MaxPreamble {
		cfg.Preamble = cfg.Preamble[:MaxPreamble]
	}
	return &Writer{
		cfg:  cfg,
		prev: snapshot.New(cfg.Schema),
		live: make(map[uint32]*liveRecord),
	}
}

// Record notes a record's new state (payload, or deleted) on the tick
// being gathered. payload is copied.
func (w *Writer) Record(id uint32, gen uint16, payload []byte, deleted bool) {
	if len(payload) > MaxPayload {
		payload = payload[:MaxPayload]
	}
	if deleted {
		delete(w.live, id)
		payload = nil
	} else {
		r := w.live[id]
		if r == nil {
			r = &liveRecord{}
			w.live[id] = r
		}
		r.gen, r.payload = gen, append(r.payload[:0], payload...)
	}
	from := len(w.payload)
	w.payload = append(w.payload, payload...)
	w.recRefs = append(w.recRefs, span{from, len(w.payload)})
	w.frame.Records = append(w.frame.Records, Record{ID: id, Gen: gen, Deleted: deleted})
}

// Event notes an event that happened on the tick being gathered. body is
// copied.
func (w *Writer) Event(kind uint8, body []byte) {
	if len(body) > MaxPayload {
		return // no game's event is that long: not one a viewer could take
	}
	from := len(w.payload)
	w.payload = append(w.payload, body...)
	w.evRefs = append(w.evRefs, span{from, len(w.payload)})
	w.frame.Events = append(w.frame.Events, Event{Kind: kind})
}

// Tick ends tick, whose world is world: the tick's frame joins the open
// fragment, and a full fragment goes to the sinks with the keyframe of its
// last tick after it. The first tick (or one that does not follow the tick
// before) starts the broadcast with a keyframe.
func (w *Writer) Tick(tick uint32, world *snapshot.Snapshot) {
	w.resolve()
	w.stats.Ticks++
	if !w.started || tick != w.prevTick+1 {
		if w.started && w.count > 0 {
			w.endFragment()
			w.number++
		}
		w.started = true
		w.keyframe(tick, world, w.frame.Events)
		w.first, w.count = tick+1, 0
	} else {
		w.frame.Tick, w.frame.Hash = tick, world.Hash()
		w.snap = w.cfg.Format.AppendDelta(w.snap[:0], tick, w.prevTick, w.prev, world)
		w.frame.Snapshot = w.snap
		w.body = appendFrame(w.body, &w.frame)
		w.count++
		if w.count == w.cfg.FragmentTicks {
			w.endFragment()
			w.number++
			w.keyframe(tick, world, nil)
			w.first, w.count = tick+1, 0
		} else if w.cfg.PartTicks > 0 && (w.count-w.partStart) == w.cfg.PartTicks {
			w.endPart(false)
		}
	}
	w.prev.CopyFrom(world)
	w.prevTick = tick
	w.frame.Records, w.frame.Events = w.frame.Records[:0], w.frame.Events[:0]
	w.payload, w.recRefs, w.evRefs = w.payload[:0], w.recRefs[:0], w.evRefs[:0]
}

// resolve points the gathered records and events at their bytes (payload
// may have moved as it grew).
func (w *Writer) resolve() {
	for k, s := range w.recRefs {
		w.frame.Records[k].Payload = w.payload[s.from:s.to:s.to]
	}
	for k, s := range w.evRefs {
		w.frame.Events[k].Body = w.payload[s.from:s.to:s.to]
	}
}

// keyframe sends the keyframe of tick: the world whole, every live record
// (and events, on the broadcast's first tick only: after that a tick's
// events are in the deltas that end on it).
func (w *Writer) keyframe(tick uint32, world *snapshot.Snapshot, events []Event) {
	w.order = w.order[:0]
	for id := range w.live {
		w.order = append(w.order, id)
	}
	slices.Sort(w.order)
	f := Frame{Tick: tick, Hash: world.Hash(), Events: events}
	w.snap = w.cfg.Format.AppendFull(w.snap[:0], tick, world)
	f.Snapshot = w.snap
	recs := make([]Record, 0, len(w.order))
	for _, id := range w.order {
		r := w.live[id]
		recs = append(recs, Record{ID: id, Gen: r.gen, Payload: r.payload})
	}
	f.Records = recs
	c := Chunk{Kind: KindKeyframe, Number: w.number, Preamble: w.cfg.Preamble, Frames: []Frame{f}}
	b := AppendChunk(nil, &c)
	w.stats.Keyframes++
	w.emit(Header{Kind: KindKeyframe, Number: w.number, First: tick, Frames: 1}, b)
}

// endPart sends the open part: the fragment's frames since the part
// before, if any.
func (w *Writer) endPart(last bool) {
	n := w.count - w.partStart
	if n == 0 {
		return
	}
	h := Header{Kind: KindPart, Number: w.number, First: w.first + uint32(w.partStart), Frames: n, Part: w.part, LastPart: last}
	b := appendHeader(make([]byte, 0, 24+len(w.body)-w.partFrom), h)
	b = append(b, w.body[w.partFrom:]...)
	w.part, w.partStart, w.partFrom = w.part+1, w.count, len(w.body)
	w.stats.Parts++
	w.emit(h, b)
}

// endFragment sends the open fragment: its last part (where parts are
// written and frames came since the part before), then the whole.
func (w *Writer) endFragment() {
	if w.cfg.PartTicks > 0 {
		w.endPart(true)
	}
	w.part, w.partStart, w.partFrom = 0, 0, 0
	h := Header{Kind: KindDeltas, Number: w.number, First: w.first, Frames: w.count}
	b := appendHeader(make([]byte, 0, 16+len(w.body)), h)
	b = append(b, w.body...)
	w.body = w.body[:0]
	w.count = 0
	w.stats.Fragments++
	w.emit(h, b)
}

func (w *Writer) emit(h Header, b []byte) {
	w.stats.Bytes += uint64(len(b))
	for i, s := range w.cfg.Sinks {
		if i > 0 {
			b = slices.Clone(b) // each sink owns its bytes
		}
		s.Chunk(h, b)
	}
}

// Close sends the open fragment, however short: the match ended. The
// Writer can go on (a later Tick starts a fragment of its own).
func (w *Writer) Close() {
	if w.started && w.count > 0 {
		w.endFragment()
		w.number++
		w.started = false
	}
}

// Stats returns the Writer's counters.
func (w *Writer) Stats() WriterStats { return w.stats }
