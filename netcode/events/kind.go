package events

import "strconv"

// Kind says what an event is and how its body is encoded. Kind 0 is never
// valid. Kinds this package does not know (7 to 255) are carried with their
// bodies unchecked, so a game may add its own.
type Kind uint8

// The kinds of events a match sends.
const (
	KindHit       Kind = iota + 1 // body: Hit
	KindKill                      // body: Kill
	KindJoin                      // body: Join
	KindLeave                     // body: Leave
	KindChat                      // body: Chat
	KindRoundOver                 // body: RoundOver
)

// String returns the kind's name, or "Kind(n)" for a kind this package does
// not know.
func (k Kind) String() string {
	switch k {
	case KindHit:
		return "hit"
	case KindKill:
		return "kill"
	case KindJoin:
		return "join"
	case KindLeave:
		return "leave"
	case KindChat:
		return "chat"
	case KindRoundOver:
		return "round-over"
	}
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
