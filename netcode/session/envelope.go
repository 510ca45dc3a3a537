package session

import (
	"encoding/binary"
	"fmt"
)

const (
	flagHash  = 1 << 0 // a 32-bit hash of the view follows
	flagInput = 1 << 1 // the sequence of the client's newest applied input follows (uvarint)
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
// stream's packet.
func ParseSnapshotHeader(p []byte) (SnapshotHeader, []byte, error) {
	var h SnapshotHeader
	if len(p) < 1 {
		return h, nil, fmt.Errorf("%w: empty snapshot datagram", ErrShort)
	}
	flags := p[0]
	if flags&^(flagHash|flagInput) != 0 {
		return h, nil, fmt.Errorf("%w: unknown snapshot flags %#x", ErrMalformed, flags)
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
		v, n := binary.Uvarint(p)
		if n <= 0 || v > 1<<32-1 {
			return h, nil, fmt.Errorf("%w: bad input sequence", ErrMalformed)
		}
		h.HasInput, h.InputSeq = true, uint32(v)
		p = p[n:]
	}
	return h, p, nil
}
