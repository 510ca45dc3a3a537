package broadcast

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// Playback decodes a broadcast's chunks in order: a keyframe to start
// from, then the fragments of deltas that follow it. Every tick it decodes
// is checked against the hash the broadcast carries.
type Playback struct {
	format   snapstream.Format
	cur, alt *snapshot.Snapshot
	started  bool
	tick     uint32 // newest decoded
	next     uint32 // the number of the deltas that follow
	chunk    Chunk
	preamble []byte
	stats    PlaybackStats
}

// PlaybackStats are a Playback's counters.
type PlaybackStats struct {
	// Ticks counts the ticks decoded; Mismatched those whose world
	// differed from the broadcast's hash.
	Ticks, Mismatched uint64
	// Keyframes, Fragments and Parts count the chunks taken.
	Keyframes, Fragments, Parts uint64
}

// NewPlayback returns a Playback for snapshots of schema s in format f.
func NewPlayback(f snapstream.Format, s *snapshot.Schema) *Playback {
	return &Playback{format: f, cur: snapshot.New(s), alt: snapshot.New(s)}
}

// Reset forgets the stream: the next chunk taken must be a keyframe (to
// seek, or to start again after falling behind).
func (p *Playback) Reset() { p.started = false }

// Started reports whether a keyframe was taken since the last Reset.
func (p *Playback) Started() bool { return p.started }

// Tick returns the newest tick decoded.
func (p *Playback) Tick() uint32 { return p.tick }

// Next returns the number of the fragment of deltas that comes next.
func (p *Playback) Next() uint32 { return p.next }

// World returns the world at Tick. It is the Playback's: it changes with
// the next chunk.
func (p *Playback) World() *snapshot.Snapshot { return p.cur }

// Preamble returns the preamble of the last keyframe taken.
func (p *Playback) Preamble() []byte { return p.preamble }

// Stats returns the Playback's counters.
func (p *Playback) Stats() PlaybackStats { return p.stats }

// Add decodes chunk b, calling fn (if not nil) with each frame and the
// world after it, in order. A keyframe starts the stream when none was
// taken (or after Reset); one for the tick already decoded (a replay holds
// one after each fragment) is passed over without a call. A part of
// fragment Next must start at the tick after the newest decoded, and its
// fragment is done after its last part. A whole fragment of deltas (Next)
// must start at the tick after the newest decoded, or, where parts of it
// were decoded, hold that tick: the frames already decoded are passed over;
// one whose last part was just taken is passed over without a call, so that
// a Writer's chunks, in the order written, play back.
// The frame and world are valid only during the call.
//
// A chunk that does not parse, or one out of order, changes nothing. A
// tick that decodes to a world other than its hash is counted, the
// Playback goes on from it, and Add returns an error wrapping ErrMismatch
// after the chunk's last frame. A snapshot that does not decode stops the
// chunk there with an error; the Playback then needs a keyframe.
func (p *Playback) Add(b []byte, fn func(f *Frame, world *snapshot.Snapshot)) error {
	if err := ParseChunk(b, &p.chunk); err != nil {
		return err
	}
	c := &p.chunk
	first := c.Frames[0].Tick
	switch c.Kind {
	case KindKeyframe:
		if p.started && first == p.tick && c.Number == p.next {
			return nil // the keyframe of where the stream already is
		}
		f := &c.Frames[0]
		h, err := p.format.ReadHeader(f.Snapshot, 0)
		if err != nil || !h.Full() || h.Tick != f.Tick {
			p.started = false
			return fmt.Errorf("%w: keyframe %d: snapshot of tick %d: %v", ErrMalformed, c.Number, h.Tick, err)
		}
		if err := p.format.Decode(f.Snapshot, h, nil, p.alt); err != nil {
			p.started = false
			return fmt.Errorf("%w: keyframe %d: %w", ErrMalformed, c.Number, err)
		}
		p.cur, p.alt = p.alt, p.cur
		p.started, p.tick, p.next = true, f.Tick, c.Number
		p.preamble = append(p.preamble[:0], c.Preamble...)
		p.stats.Keyframes++
		return p.verified(f, fn)
	case KindDeltas, KindPart:
		if !p.started {
			return fmt.Errorf("%w: %s %d before any keyframe", ErrOutOfOrder, c.Kind, c.Number)
		}
		last := c.Frames[len(c.Frames)-1].Tick
		if c.Kind == KindDeltas && c.Number+1 == p.next && last == p.tick {
			return nil // the fragment its parts just ended
		}
		inside := c.Kind == KindDeltas && first <= p.tick && p.tick <= last
		if (first != p.tick+1 && !inside) || c.Number != p.next {
			return fmt.Errorf("%w: %s %d from tick %d after tick %d (want deltas %d)", ErrOutOfOrder, c.Kind, c.Number, first, p.tick, p.next)
		}
	}
	if c.Kind == KindPart {
		p.stats.Parts++
	} else {
		p.stats.Fragments++
	}
	var mismatch error
	for i := range c.Frames {
		f := &c.Frames[i]
		if f.Tick <= p.tick {
			continue // decoded from the fragment's parts
		}
		h, err := p.format.ReadHeader(f.Snapshot, p.tick)
		if err == nil && (h.Tick != f.Tick || h.Baseline != p.tick) {
			err = fmt.Errorf("snapshot of tick %d against %d", h.Tick, h.Baseline)
		}
		if err == nil {
			err = p.format.Decode(f.Snapshot, h, p.cur, p.alt)
		}
		if err != nil {
			p.started = false
			return fmt.Errorf("%w: deltas %d, tick %d: %w", ErrMalformed, c.Number, f.Tick, err)
		}
		p.cur, p.alt = p.alt, p.cur
		p.tick = f.Tick
		if err := p.verified(f, fn); err != nil && mismatch == nil {
			mismatch = err
		}
	}
	if c.Kind == KindDeltas || c.LastPart {
		p.next = c.Number + 1
	}
	return mismatch
}

// verified counts the tick just decoded, checks it against its hash and
// hands it to fn.
func (p *Playback) verified(f *Frame, fn func(*Frame, *snapshot.Snapshot)) error {
	p.stats.Ticks++
	var err error
	if got := p.cur.Hash(); got != f.Hash {
		p.stats.Mismatched++
		err = fmt.Errorf("%w: tick %d hashes to %08x, the broadcast says %08x", ErrMismatch, f.Tick, got, f.Hash)
	}
	if fn != nil {
		fn(f, p.cur)
	}
	return err
}
