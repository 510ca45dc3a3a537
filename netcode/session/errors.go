package session

import "errors"

var (
	// ErrShort is returned for a datagram shorter than its header says.
	ErrShort = errors.New("session: datagram too short")
	// ErrMalformed is returned for a datagram that breaks the framing.
	ErrMalformed = errors.New("session: malformed datagram")
	// ErrDesync is returned when a decoded tick does not hash like the
	// server's view of it. The tick is decoded and kept; the error reports
	// what verification found.
	ErrDesync = errors.New("session: decoded state differs from the server's")
)
