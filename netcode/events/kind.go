package events

import (
	"fmt"
	"strconv"
)

// Kind says what an event is and how its body is encoded. The game assigns
// its kinds (1 to 255) and their encodings; this package frames, orders and
// acknowledges events without interpreting them. Kind 0 is never valid.
type Kind uint8

// String returns "Kind(n)": the names of kinds are the game's.
func (k Kind) String() string {
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Event is one thing that happened. Seq is assigned by the Outbox (Push
// ignores it) and set on the events an Inbox delivers. Body is the kind's
// encoded body; events delivered by an Inbox alias its storage or the
// datagram, so copy the bytes to keep them.
type Event struct {
	Seq  uint32
	Kind Kind
	Tick uint32 // the server tick it happened on
	Body []byte
}

// Validator checks that body is well formed for kind k, the game's rule for
// the kinds it defines. It is called for every event an Outbox is pushed and
// every event of a datagram an Inbox or ParseDatagram takes, so it must not
// allocate when the body is good, must not keep body, and must accept any
// body of a kind it does not define if those are to be carried. Kind 0 and
// bodies over MaxBody are refused before it is called. A nil Validator
// accepts every body.
type Validator func(k Kind, body []byte) error

// validate checks an event's kind and body with v, wrapping v's error in
// ErrMalformed.
func validate(v Validator, k Kind, body []byte) error {
	if k == 0 {
		return fmt.Errorf("%w: event kind 0", ErrMalformed)
	}
	if v == nil {
		return nil
	}
	if err := v(k, body); err != nil {
		return fmt.Errorf("%w: %v body: %w", ErrMalformed, k, err)
	}
	return nil
}
