package broadcast

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sort"
)

// A replay file is the broadcast of one match: its header, then every
// chunk the Writer made, each after its length:
//
//	file   = "SLREPLAY", version byte (1), protocol varint, tick rate
//	         varint (in thousandths of a hertz), fragment ticks varint,
//	         entry*
//	entry  = chunk length varint (1 .. MaxChunk), chunk
//
// Keyframe n comes before deltas n; seeking reads the keyframe at or before
// the tick sought, then deltas forward.
var replayMagic = [8]byte{'S', 'L', 'R', 'E', 'P', 'L', 'A', 'Y'}

// ReplayVersion is the version of the replay file's own framing.
const ReplayVersion = 1

// MaxReplay is the longest replay file read, in bytes.
const MaxReplay = 1 << 30

// ReplayHeader is what a replay file says of its match.
type ReplayHeader struct {
	// Protocol is the game's protocol version.
	Protocol uint32
	// TickRate is the match's ticks a second.
	TickRate float64
	// FragmentTicks is the ticks a fragment of deltas holds.
	FragmentTicks int
}

// AppendReplayHeader appends the start of a replay file.
func AppendReplayHeader(dst []byte, h ReplayHeader) []byte {
	dst = append(dst, replayMagic[:]...)
	dst = append(dst, ReplayVersion)
	dst = binary.AppendUvarint(dst, uint64(h.Protocol))
	dst = binary.AppendUvarint(dst, uint64(math.Round(h.TickRate*1000)))
	return binary.AppendUvarint(dst, uint64(h.FragmentTicks))
}

// Recorder is a Sink that writes a replay file to w, each chunk whole
// before the next (a file cut short by a crash loses at most the entry
// being written). Err reports the first write error; after one the
// Recorder writes nothing more.
type Recorder struct {
	w     *bufio.Writer
	err   error
	bytes int64
}

// NewRecorder writes the replay header to w and returns the Recorder.
func NewRecorder(w io.Writer, h ReplayHeader) *Recorder {
	r := &Recorder{w: bufio.NewWriterSize(w, 64<<10)}
	b := AppendReplayHeader(nil, h)
	r.write(b)
	return r
}

func (r *Recorder) write(b []byte) {
	if r.err != nil {
		return
	}
	n, err := r.w.Write(b)
	r.bytes += int64(n)
	r.err = err
}

// Chunk writes a chunk (Sink) and flushes it.
func (r *Recorder) Chunk(h Header, b []byte) {
	if h.Kind == KindPart {
		return // a replay holds whole fragments; parts are for live viewers
	}
	var n [binary.MaxVarintLen64]byte
	r.write(n[:binary.PutUvarint(n[:], uint64(len(b)))])
	r.write(b)
	if r.err == nil {
		r.err = r.w.Flush()
	}
}

// Bytes returns the bytes written.
func (r *Recorder) Bytes() int64 { return r.bytes }

// Err returns the first error writing, if any.
func (r *Recorder) Err() error { return r.err }

// Replay is a replay file read whole, with a table of its chunks.
type Replay struct {
	Header  ReplayHeader
	data    []byte
	entries []entry
}

type entry struct {
	h        Header
	from, to int
}

// OpenReplay reads a replay file from its bytes (which the Replay keeps).
// A file cut short, a chunk whose header does not parse, or chunks out of
// order are refused with an error wrapping ErrMalformed that says where.
func OpenReplay(b []byte) (*Replay, error) {
	if len(b) > MaxReplay {
		return nil, fmt.Errorf("%w: replay of %d bytes, at most %d", ErrTooLarge, len(b), MaxReplay)
	}
	if len(b) < len(replayMagic)+1 || [8]byte(b[:8]) != replayMagic {
		return nil, fmt.Errorf("%w: not a replay file", ErrMalformed)
	}
	if b[8] != ReplayVersion {
		return nil, fmt.Errorf("%w: replay version %d, want %d", ErrMalformed, b[8], ReplayVersion)
	}
	r := reader{p: b[9:]}
	rp := &Replay{data: b}
	rp.Header.Protocol = uint32(r.uvarint(math.MaxUint32, "protocol"))
	rp.Header.TickRate = float64(r.uvarint(1000*1000, "tick rate")) / 1000
	rp.Header.FragmentTicks = int(r.uvarint(1<<20, "fragment ticks"))
	if r.err != nil {
		return nil, r.err
	}
	if rp.Header.TickRate <= 0 {
		return nil, fmt.Errorf("%w: tick rate 0", ErrMalformed)
	}
	var last Header
	for len(r.p) > 0 {
		at := len(b) - len(r.p)
		n := int(r.uvarint(MaxChunk, "chunk length"))
		if r.err != nil {
			return nil, fmt.Errorf("entry at byte %d: %w", at, r.err)
		}
		if n == 0 || n > len(r.p) {
			return nil, fmt.Errorf("%w: entry at byte %d: a chunk of %d bytes, %d left (the file is cut short)", ErrMalformed, at, n, len(r.p))
		}
		from := len(b) - len(r.p)
		h, err := ReadHeader(r.p[:n])
		if err != nil {
			return nil, fmt.Errorf("entry at byte %d: %w", at, err)
		}
		if len(rp.entries) > 0 && !follows(last, h) {
			return nil, fmt.Errorf("%w: entry at byte %d: %s %d (ticks %d-%d) after %s %d (ticks %d-%d)",
				ErrMalformed, at, h.Kind, h.Number, h.First, h.Last(), last.Kind, last.Number, last.First, last.Last())
		}
		rp.entries = append(rp.entries, entry{h: h, from: from, to: from + n})
		last = h
		r.p = r.p[n:]
	}
	if len(rp.entries) == 0 || rp.entries[0].h.Kind != KindKeyframe {
		return nil, fmt.Errorf("%w: replay does not start with a keyframe", ErrMalformed)
	}
	return rp, nil
}

// follows reports whether chunk h may come after last in a replay: deltas
// after the keyframe of the same number; the keyframe that ends deltas;
// after a gap (the match restarted), a keyframe further on.
func follows(last, h Header) bool {
	switch {
	case h.Kind == KindDeltas:
		return last.Kind == KindKeyframe && h.Number == last.Number && h.First == last.First+1 ||
			last.Kind == KindDeltas && h.Number == last.Number+1 && h.First == last.Last()+1
	default:
		return h.Number > last.Number && h.First >= last.Last() ||
			last.Kind == KindDeltas && h.Number == last.Number+1 && h.First == last.Last()
	}
}

// Chunks returns the number of chunks.
func (rp *Replay) Chunks() int { return len(rp.entries) }

// Chunk returns chunk i's header and bytes.
func (rp *Replay) Chunk(i int) (Header, []byte) {
	e := rp.entries[i]
	return e.h, rp.data[e.from:e.to:e.to]
}

// FirstTick and LastTick return the first and last tick the replay holds.
func (rp *Replay) FirstTick() uint32 { return rp.entries[0].h.First }

// LastTick returns the last tick the replay holds.
func (rp *Replay) LastTick() uint32 { return rp.entries[len(rp.entries)-1].h.Last() }

// Seek returns the chunk to start from to reach tick: the last keyframe at
// or before it (the first keyframe when tick is before the start).
func (rp *Replay) Seek(tick uint32) int {
	i := sort.Search(len(rp.entries), func(i int) bool { return rp.entries[i].h.First > tick })
	for i--; i > 0; i-- {
		if rp.entries[i].h.Kind == KindKeyframe {
			return i
		}
	}
	return 0
}
