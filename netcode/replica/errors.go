package replica

import "errors"

var (
	// ErrWrongType is returned for a datagram whose first byte is not the
	// type byte the decoder expects: a stray datagram, or one of the other
	// kind (an ack handed to a Receiver, a records datagram to a Sender).
	ErrWrongType = errors.New("replica: wrong datagram type")
	// ErrShort is returned for a datagram that ends in the middle of a
	// field, including an empty one.
	ErrShort = errors.New("replica: datagram too short")
	// ErrMalformed is returned for a datagram that breaks the format: no
	// entries, an over-long or non-canonical number, a payload longer than
	// MaxPayload.
	ErrMalformed = errors.New("replica: malformed datagram")
	// ErrTooManyRecords is returned by Receiver.Handle when a datagram
	// carried new records beyond the receiver's MaxRecords limit. The other
	// records of the datagram were applied and acknowledged; the refused ones
	// were not acknowledged, so the sender keeps resending them and in the
	// end gives up and reports Failing.
	ErrTooManyRecords = errors.New("replica: too many live records")
	// ErrPayloadTooLarge is returned by Sender.Publish for a payload longer
	// than MaxPayload.
	ErrPayloadTooLarge = errors.New("replica: payload larger than MaxPayload")
	// ErrOldGeneration is returned by Sender.Publish and Sender.Delete for a
	// generation older than the one the sender holds for that id.
	ErrOldGeneration = errors.New("replica: generation older than the current one")
	// ErrRevisionsExhausted is returned by Sender.Publish and Sender.Delete
	// once the sender has handed out all 2^32-1 revisions. Start a new
	// connection (new Sender and Receiver).
	ErrRevisionsExhausted = errors.New("replica: revision counter exhausted")
)
