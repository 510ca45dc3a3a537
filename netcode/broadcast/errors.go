package broadcast

import "errors"

var (
	// ErrMalformed is wrapped by every error for bytes that are not a chunk,
	// an index or a replay file.
	ErrMalformed = errors.New("broadcast: malformed")
	// ErrTooLarge is returned for a chunk, an index or a replay file longer
	// than its limit.
	ErrTooLarge = errors.New("broadcast: too large")
	// ErrOutOfOrder is returned by Playback for a chunk that does not
	// follow the one before it.
	ErrOutOfOrder = errors.New("broadcast: chunk out of order")
	// ErrMismatch is returned by Playback for a tick whose decoded world
	// differs from the hash the broadcast carries.
	ErrMismatch = errors.New("broadcast: decoded tick differs from its hash")
	// ErrNotFound is returned by a Viewer's fetch for a chunk the origin
	// does not hold (yet, or any more).
	ErrNotFound = errors.New("broadcast: not found")
)
