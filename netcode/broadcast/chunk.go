package broadcast

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Kind says what a chunk holds.
type Kind uint8

const (
	// KindKeyframe is a chunk of one tick whole: a full snapshot, every
	// live record and the preamble.
	KindKeyframe Kind = 1
	// KindDeltas is a chunk of the ticks after a keyframe's or the
	// fragment before's, each a delta against the tick before it.
	KindDeltas Kind = 2
	// KindPart is a part of a fragment of deltas, published as soon as
	// its ticks are (after the delay), before the whole fragment is: a
	// run of its frames, the same bytes, with the part's place in the
	// fragment and whether it is the fragment's last.
	KindPart Kind = 3
)

func (k Kind) String() string {
	switch k {
	case KindKeyframe:
		return "key"
	case KindDeltas:
		return "delta"
	case KindPart:
		return "part"
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// Version is the version of the chunk format, its fourth byte.
const Version = 1

// magic starts every chunk.
var magic = [3]byte{'S', 'L', 'B'}

// Limits of what a parser takes: a longer chunk, payload or body is refused
// before anything is allocated for it.
const (
	// MaxChunk is the longest chunk, in bytes.
	MaxChunk = 8 << 20
	// MaxPayload is the longest record payload or event body, in bytes.
	MaxPayload = 64 << 10
	// MaxPreamble is the longest preamble, in bytes.
	MaxPreamble = 4 << 10
)

// Record is a record's state on a frame: published with Payload, or
// deleted. In a keyframe, the frame's records are every live record.
type Record struct {
	ID      uint32
	Gen     uint16
	Deleted bool
	Payload []byte
}

// Event is one event that happened on a frame's tick.
type Event struct {
	Kind uint8
	Body []byte
}

// Frame is one tick of a broadcast.
type Frame struct {
	// Tick is the tick the frame holds.
	Tick uint32
	// Hash is the hash of the world after the tick (snapshot.Snapshot.Hash).
	Hash uint32
	// Snapshot is the world as the game's snapstream.Format encodes it: a
	// full packet in a keyframe, otherwise a delta against the tick before.
	Snapshot []byte
	// Records are the records that changed on the tick (in a keyframe,
	// every live record).
	Records []Record
	// Events are what happened on the tick, in order.
	Events []Event
}

// Chunk is a keyframe, a fragment of deltas or a part of one. A parsed
// chunk's byte slices alias the bytes it was parsed from.
type Chunk struct {
	Kind Kind
	// Number is the fragment's number: keyframe n is the tick just before
	// deltas n's first.
	Number uint32
	// Part is a part's place in its fragment (0, 1, ...) and LastPart
	// says that it ends the fragment; neither is used by the other kinds.
	Part     int
	LastPart bool
	// Preamble is what a viewer must know before its first tick (a
	// keyframe's; opaque to this package).
	Preamble []byte
	// Frames are the chunk's ticks, consecutive: one in a keyframe.
	Frames []Frame
}

// Header is what a chunk says of itself before its frames.
type Header struct {
	Kind   Kind
	Number uint32
	// First is the tick of the first frame; the others follow it one by one.
	First uint32
	// Frames is the number of frames.
	Frames int
	// Part and LastPart are a part's (see Chunk).
	Part     int
	LastPart bool
}

// Last returns the tick of the chunk's last frame.
func (h Header) Last() uint32 { return h.First + uint32(h.Frames) - 1 }

// appendHeader appends a chunk's header.
func appendHeader(dst []byte, h Header) []byte {
	dst = append(dst, magic[0], magic[1], magic[2], Version, byte(h.Kind))
	dst = binary.AppendUvarint(dst, uint64(h.Number))
	dst = binary.AppendUvarint(dst, uint64(h.First))
	dst = binary.AppendUvarint(dst, uint64(h.Frames))
	if h.Kind == KindPart {
		dst = binary.AppendUvarint(dst, uint64(h.Part))
		last := byte(0)
		if h.LastPart {
			last = 1
		}
		dst = append(dst, last)
	}
	return dst
}

// appendFrame appends a frame's bytes (its tick is implied by its place).
func appendFrame(dst []byte, f *Frame) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, f.Hash)
	dst = appendBytes(dst, f.Snapshot)
	dst = binary.AppendUvarint(dst, uint64(len(f.Records)))
	for i := range f.Records {
		dst = appendRecord(dst, &f.Records[i])
	}
	dst = binary.AppendUvarint(dst, uint64(len(f.Events)))
	for _, e := range f.Events {
		dst = appendEvent(dst, e.Kind, e.Body)
	}
	return dst
}

func appendRecord(dst []byte, r *Record) []byte {
	dst = binary.AppendUvarint(dst, uint64(r.ID))
	dst = binary.AppendUvarint(dst, uint64(r.Gen))
	if r.Deleted {
		return append(dst, 1)
	}
	return appendBytes(append(dst, 0), r.Payload)
}

func appendEvent(dst []byte, kind uint8, body []byte) []byte {
	return appendBytes(append(dst, kind), body)
}

func appendBytes(dst, b []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(b))), b...)
}

// AppendChunk appends c's bytes. Its frames' ticks must follow each other
// one by one (their Tick fields after the first are not written); a
// keyframe has one frame.
func AppendChunk(dst []byte, c *Chunk) []byte {
	h := Header{Kind: c.Kind, Number: c.Number, Frames: len(c.Frames), Part: c.Part, LastPart: c.LastPart}
	if len(c.Frames) > 0 {
		h.First = c.Frames[0].Tick
	}
	dst = appendHeader(dst, h)
	if c.Kind == KindKeyframe {
		dst = appendBytes(dst, c.Preamble)
	}
	for i := range c.Frames {
		dst = appendFrame(dst, &c.Frames[i])
	}
	return dst
}

// reader reads a chunk, remembering the first error.
type reader struct {
	p   []byte
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
	}
}

func (r *reader) byte() byte {
	if r.err != nil {
		return 0
	}
	if len(r.p) == 0 {
		r.fail("truncated")
		return 0
	}
	b := r.p[0]
	r.p = r.p[1:]
	return b
}

// uvarint reads a varint in its shortest form, at most limit.
func (r *reader) uvarint(limit uint64, what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.p)
	if n <= 0 {
		r.fail("%s: truncated or overlong varint", what)
		return 0
	}
	if n != uvarintLen(v) {
		r.fail("%s: varint not in shortest form", what)
		return 0
	}
	if v > limit {
		r.fail("%s %d above %d", what, v, limit)
		return 0
	}
	r.p = r.p[n:]
	return v
}

// uvarintLen returns the length of v's shortest varint.
func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

func (r *reader) bytes(limit int, what string) []byte {
	n := int(r.uvarint(uint64(limit), what+" length"))
	if r.err != nil {
		return nil
	}
	if n > len(r.p) {
		r.fail("%s: %d bytes claimed, %d left", what, n, len(r.p))
		return nil
	}
	b := r.p[:n:n]
	r.p = r.p[n:]
	return b
}

func (r *reader) uint32() uint32 {
	if r.err != nil {
		return 0
	}
	if len(r.p) < 4 {
		r.fail("truncated hash")
		return 0
	}
	v := binary.LittleEndian.Uint32(r.p)
	r.p = r.p[4:]
	return v
}

// Smallest encodings, which bound the counts a chunk can claim by its length.
const (
	minFrame  = 4 + 1 + 1 + 1 // hash, empty snapshot, no records, no events
	minRecord = 3             // id, gen, flags
	minEvent  = 2             // kind, empty body
)

func (r *reader) header() Header {
	if len(r.p) < 5 {
		r.fail("truncated header")
		return Header{}
	}
	if [3]byte(r.p[:3]) != magic {
		r.fail("not a broadcast chunk")
		return Header{}
	}
	if r.p[3] != Version {
		r.fail("chunk format version %d, want %d", r.p[3], Version)
		return Header{}
	}
	h := Header{Kind: Kind(r.p[4])}
	r.p = r.p[5:]
	if h.Kind != KindKeyframe && h.Kind != KindDeltas && h.Kind != KindPart {
		r.fail("unknown chunk kind %d", uint8(h.Kind))
		return Header{}
	}
	h.Number = uint32(r.uvarint(math.MaxUint32, "number"))
	h.First = uint32(r.uvarint(math.MaxUint32, "first tick"))
	h.Frames = int(r.uvarint(MaxChunk/minFrame, "frames"))
	if h.Kind == KindPart {
		h.Part = int(r.uvarint(MaxChunk/minFrame, "part"))
		switch r.byte() {
		case 0:
		case 1:
			h.LastPart = true
		default:
			r.fail("part's last flag not 0 or 1")
		}
	}
	if r.err != nil {
		return Header{}
	}
	switch {
	case h.First == 0:
		r.fail("tick 0")
	case h.Frames == 0:
		r.fail("no frames")
	case h.Kind == KindKeyframe && h.Frames != 1:
		r.fail("keyframe of %d frames", h.Frames)
	case uint64(h.First)+uint64(h.Frames)-1 > math.MaxUint32:
		r.fail("ticks past 2^32")
	}
	return h
}

// ReadHeader reads the header of chunk p without its frames.
func ReadHeader(p []byte) (Header, error) {
	if len(p) > MaxChunk {
		return Header{}, fmt.Errorf("%w: chunk of %d bytes, at most %d", ErrTooLarge, len(p), MaxChunk)
	}
	r := reader{p: p}
	h := r.header()
	return h, r.err
}

// ParseChunk parses chunk p into c, reusing c's slices. c's byte slices
// alias p. A chunk with bytes left over, a varint not in its shortest form
// or a length past the end is refused with an error wrapping ErrMalformed;
// what is allocated is bounded by len(p), never by what p claims.
func ParseChunk(p []byte, c *Chunk) error {
	if len(p) > MaxChunk {
		return fmt.Errorf("%w: chunk of %d bytes, at most %d", ErrTooLarge, len(p), MaxChunk)
	}
	r := reader{p: p}
	h := r.header()
	if r.err != nil {
		return r.err
	}
	if h.Frames > len(r.p)/minFrame {
		return fmt.Errorf("%w: %d frames claimed in %d bytes", ErrMalformed, h.Frames, len(r.p))
	}
	c.Kind, c.Number, c.Preamble = h.Kind, h.Number, nil
	c.Part, c.LastPart = h.Part, h.LastPart
	if h.Kind == KindKeyframe {
		c.Preamble = r.bytes(MaxPreamble, "preamble")
	}
	c.Frames = c.Frames[:0]
	for i := range h.Frames {
		var f Frame
		if i < cap(c.Frames) {
			f = c.Frames[:i+1][i] // reuse its slices
		}
		f.Tick = h.First + uint32(i)
		f.Hash = r.uint32()
		f.Snapshot = r.bytes(MaxChunk, "snapshot")
		n := int(r.uvarint(uint64(len(r.p)/minRecord), "records"))
		f.Records = f.Records[:0]
		for range n {
			var rec Record
			rec.ID = uint32(r.uvarint(math.MaxUint32, "record id"))
			rec.Gen = uint16(r.uvarint(math.MaxUint16, "record generation"))
			switch r.byte() {
			case 0:
				rec.Payload = r.bytes(MaxPayload, "record payload")
			case 1:
				rec.Deleted = true
			default:
				r.fail("record flags not 0 or 1")
			}
			if r.err != nil {
				return r.err
			}
			if h.Kind == KindKeyframe && rec.Deleted {
				r.fail("a deletion in a keyframe")
				return r.err
			}
			f.Records = append(f.Records, rec)
		}
		n = int(r.uvarint(uint64(len(r.p)/minEvent), "events"))
		f.Events = f.Events[:0]
		for range n {
			kind := r.byte()
			body := r.bytes(MaxPayload, "event body")
			if r.err != nil {
				return r.err
			}
			f.Events = append(f.Events, Event{Kind: kind, Body: body})
		}
		if r.err != nil {
			return r.err
		}
		c.Frames = append(c.Frames, f)
	}
	if len(r.p) != 0 {
		return fmt.Errorf("%w: %d bytes left over", ErrMalformed, len(r.p))
	}
	return nil
}
