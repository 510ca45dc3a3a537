package events

import "errors"

var (
	// ErrWrongType is returned for a datagram whose first byte is not
	// TypeEvents: a stray datagram.
	ErrWrongType = errors.New("events: wrong datagram type")
	// ErrShort is returned for a datagram that ends in the middle of a
	// field, including an empty one.
	ErrShort = errors.New("events: input too short")
	// ErrMalformed is returned for a datagram or event that breaks the
	// format: no events, kind 0, an over-long or non-canonical number, a
	// body over MaxBody or one the game's Validator refuses (the error then
	// wraps the Validator's too).
	ErrMalformed = errors.New("events: malformed input")
	// ErrQueueFull is returned by Outbox.Push when MaxQueued events are
	// already waiting: the peer has stopped reading, and its owner should
	// disconnect it.
	ErrQueueFull = errors.New("events: outbox full")
	// ErrReorderWindow is returned by Inbox.Handle for a datagram holding an
	// event too far ahead of the next one expected to be held until its turn:
	// the stream has a gap it will not fill, and the connection is broken.
	ErrReorderWindow = errors.New("events: event beyond the reorder window")
	// ErrSeqExhausted is returned by Outbox.Push after 2^32-1 events: start
	// a new connection.
	ErrSeqExhausted = errors.New("events: sequence numbers exhausted")
)
