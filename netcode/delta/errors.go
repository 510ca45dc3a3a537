package delta

import "errors"

var (
	// ErrMalformed is returned for a packet that does not follow the format.
	ErrMalformed = errors.New("delta: malformed packet")
	// ErrTooMany is returned when a packet would hold more entities than the schema allows.
	ErrTooMany = errors.New("delta: too many entities")
	// ErrBaseline is returned when a delta's baseline is not the snapshot given, or cannot be named.
	ErrBaseline = errors.New("delta: wrong or missing baseline")
	// ErrKind is returned when a packet is a full snapshot where a delta was expected, or the reverse.
	ErrKind = errors.New("delta: unexpected packet kind")
)
