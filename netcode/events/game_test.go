package events_test

import (
	"errors"
	"fmt"

	"github.com/sightline-game/sightline/netcode/events"
)

// The tests' made-up game: its kinds and bodies, which the events package
// frames without knowing them.
const (
	kindShot events.Kind = 1 // body: shot
	kindSay  events.Kind = 2 // body: a line of text, 1 to maxSay bytes
	kindOver events.Kind = 3 // body: the round's number, one byte
	maxSay               = 300
)

// errBody is the made-up game's error for a body it refuses.
var errBody = errors.New("test game: bad body")

// shot is the body of a kindShot event: three bytes.
type shot struct{ shooter, target, damage byte }

func appendShot(dst []byte, s shot) []byte { return append(dst, s.shooter, s.target, s.damage) }

func parseShot(b []byte) (shot, error) {
	if len(b) != 3 {
		return shot{}, fmt.Errorf("%w: shot of %d bytes", errBody, len(b))
	}
	return shot{b[0], b[1], b[2]}, nil
}

// validBody is the made-up game's Validator: kinds it does not define are
// carried unchecked.
func validBody(k events.Kind, body []byte) error {
	switch k {
	case kindShot:
		_, err := parseShot(body)
		return err
	case kindSay:
		if len(body) == 0 || len(body) > maxSay {
			return fmt.Errorf("%w: line of %d bytes", errBody, len(body))
		}
	case kindOver:
		if len(body) != 1 {
			return fmt.Errorf("%w: round of %d bytes", errBody, len(body))
		}
	}
	return nil
}

func shotEvent(tick uint32, s shot) events.Event {
	return events.Event{Kind: kindShot, Tick: tick, Body: appendShot(nil, s)}
}

func sayEvent(tick uint32, text string) events.Event {
	return events.Event{Kind: kindSay, Tick: tick, Body: []byte(text)}
}

func newOutbox(maxQueued int) *events.Outbox {
	return events.NewOutbox(events.OutboxConfig{MaxQueued: maxQueued, Validate: validBody})
}

func newInbox(window int) *events.Inbox {
	return events.NewInbox(events.InboxConfig{Window: window, Validate: validBody})
}
