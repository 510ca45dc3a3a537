package session

import (
	"encoding/binary"
	"fmt"

	"github.com/sightline-game/sightline/netcode/varint"
)

const (
	flagHash   = 1 << 0 // a 32-bit hash of the view follows
	flagInput  = 1 << 1 // the sequence of the client's newest applied input follows (uvarint)
	flagSpare  = 1 << 2 // the client's spare inputs at the server, plus one, are in spareMask
	spareMask  = 0xf << spareShift
	spareShift = 3
	maxSpare   = 14 // the most spare inputs the header tells
)

// MaxHeaderSize is the most bytes AppendSnapshotHeader writes.
const MaxHeaderSize = 1 + 4 + binary.MaxVarintLen32

// SnapshotHeader is the framing of a snapshot datagram.
type SnapshotHeader struct {
	HasHash bool
	Hash    uint32 // of the state the packet carries
	// HasInput says InputSeq is set: the newest of this client's inputs the
	// server had applied when it stepped this tick. A predicting client
	// replays only the inputs after it.
	HasInput bool
	InputSeq uint32
	// HasSpare says Spare is set: how many of this client's inputs waited
	// in the server's queue beyond the one its step of this tick applied;
	// -1 if none was there to apply (the input came late). A client keeps
	// it a little above zero by sending its inputs a little earlier or
	// later (its input clock), so that an input late by a little still
	// comes in time, and none waits long. It rides in the flags byte:
	// -1 to 14, more reads as 14.
	HasSpare bool
	Spare    int8
}

// AppendSnapshotHeader appends the framing of a snapshot datagram; the
// stream's packet follows.
func AppendSnapshotHeader(dst []byte, h SnapshotHeader) []byte {
	var flags byte
	if h.HasHash {
		flags |= flagHash
	}
	if h.HasInput {
		flags |= flagInput
	}
	if h.HasSpare {
		flags |= flagSpare | byte(min(max(int(h.Spare), -1), maxSpare)+1)<<spareShift
	}
	dst = append(dst, flags)
	if h.HasHash {
		dst = binary.LittleEndian.AppendUint32(dst, h.Hash)
	}
	if h.HasInput {
		dst = binary.AppendUvarint(dst, uint64(h.InputSeq))
	}
	return dst
}

// ParseSnapshotHeader splits a snapshot datagram into its framing and the
// stream's packet. It refuses a datagram whose flags set a bit it does not
// know (bit 7, or spare-input bits without flagSpare): an unknown flag may
// mean framing it cannot skip. The input sequence is a varint in shortest
// form, at most 5 bytes and 2^32-1.
func ParseSnapshotHeader(p []byte) (SnapshotHeader, []byte, error) {
	var h SnapshotHeader
	if len(p) < 1 {
		return h, nil, fmt.Errorf("%w: empty snapshot datagram", ErrShort)
	}
	flags := p[0]
	if flags&^(flagHash|flagInput|flagSpare|spareMask) != 0 || flags&flagSpare == 0 && flags&spareMask != 0 {
		return h, nil, fmt.Errorf("%w: unknown snapshot flags %#x", ErrMalformed, flags)
	}
	if flags&flagSpare != 0 {
		h.HasSpare, h.Spare = true, int8(flags&spareMask>>spareShift)-1
	}
	p = p[1:]
	if flags&flagHash != 0 {
		if len(p) < 4 {
			return h, nil, fmt.Errorf("%w: snapshot datagram cut in its hash", ErrShort)
		}
		h.HasHash, h.Hash = true, binary.LittleEndian.Uint32(p)
		p = p[4:]
	}
	if flags&flagInput != 0 {
		v, n, err := varint.Read(p, 1<<32-1)
		if err != nil {
			return h, nil, fmt.Errorf("%w: input sequence: %w", ErrMalformed, err)
		}
		h.HasInput, h.InputSeq = true, uint32(v)
		p = p[n:]
	}
	return h, p, nil
}
