package snapstream

import "errors"

var (
	// ErrStale is returned for a packet at or below the receiver's newest tick.
	ErrStale = errors.New("snapstream: stale packet")
	// ErrNoBaseline is returned for a delta whose baseline the receiver does not hold.
	ErrNoBaseline = errors.New("snapstream: baseline not held")
	// ErrDecode wraps a format's decoding error.
	ErrDecode = errors.New("snapstream: undecodable packet")
)
