package session

import (
	"encoding/binary"
	"fmt"
)

const flagHash = 1 << 0

// MaxHeaderSize is the most bytes AppendSnapshotHeader writes.
const MaxHeaderSize = 5

// AppendSnapshotHeader appends the framing of a snapshot datagram: the flags
// byte and, when withHash, the hash of the state the packet carries. The
// stream's packet follows.
func AppendSnapshotHeader(dst []byte, withHash bool, hash uint32) []byte {
	if !withHash {
		return append(dst, 0)
	}
	dst = append(dst, flagHash)
	return binary.LittleEndian.AppendUint32(dst, hash)
}

// ParseSnapshotHeader splits a snapshot datagram into its hash (if any) and
// the stream's packet.
func ParseSnapshotHeader(p []byte) (hash uint32, hasHash bool, packet []byte, err error) {
	if len(p) < 1 {
		return 0, false, nil, fmt.Errorf("%w: empty snapshot datagram", ErrShort)
	}
	switch p[0] {
	case 0:
		return 0, false, p[1:], nil
	case flagHash:
		if len(p) < 5 {
			return 0, false, nil, fmt.Errorf("%w: snapshot datagram cut in its hash", ErrShort)
		}
		return binary.LittleEndian.Uint32(p[1:]), true, p[5:], nil
	}
	return 0, false, nil, fmt.Errorf("%w: unknown snapshot flags %#x", ErrMalformed, p[0])
}
