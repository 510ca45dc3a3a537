package events_test

import (
	"errors"
	"fmt"

	"github.com/sightline-game/sightline/netcode/events"
)

// A made-up game's event kinds and their bodies: the events package frames
// them without knowing what they mean.
const (
	exampleJoin  events.Kind = 1 // body: the player's name
	exampleScore events.Kind = 2 // body: player, points (one byte each)
)

func exampleName(k events.Kind) string {
	switch k {
	case exampleJoin:
		return "join"
	case exampleScore:
		return "score"
	}
	return k.String()
}

// exampleValidate is the made-up game's rule for its bodies.
func exampleValidate(k events.Kind, body []byte) error {
	switch {
	case k == exampleJoin && (len(body) == 0 || len(body) > 16):
		return errors.New("a name of 1 to 16 bytes")
	case k == exampleScore && len(body) != 2:
		return errors.New("a score of 2 bytes")
	}
	return nil
}

// The server numbers and frames events; the client's goroutines hand the
// datagrams over in the wrong order, and one twice. The Inbox still
// delivers each event once, in order, and both ends check the bodies with
// the game's Validator.
func Example() {
	out := events.NewOutbox(events.OutboxConfig{Validate: exampleValidate}) // server side, one per connection
	out.Push(events.Event{Kind: exampleJoin, Tick: 40, Body: []byte("bo")})
	out.Push(events.Event{Kind: exampleScore, Tick: 41, Body: []byte{2, 10}})
	out.Push(events.Event{Kind: exampleScore, Tick: 41, Body: []byte{5, 3}})
	if err := out.Push(events.Event{Kind: exampleScore, Tick: 42, Body: []byte{5}}); err != nil {
		fmt.Println("refused:", err)
	}

	var datagrams [][]byte
	for {
		p, n := out.AppendNext(nil, 8) // a tiny budget: one event each
		if n == 0 {
			break
		}
		datagrams = append(datagrams, p)
	}

	in := events.NewInbox(events.InboxConfig{Validate: exampleValidate}) // client side
	show := func(e events.Event) {
		fmt.Printf("#%d tick %d %s %v\n", e.Seq, e.Tick, exampleName(e.Kind), e.Body)
	}
	for _, i := range []int{2, 0, 0, 1} {
		if err := in.Handle(datagrams[i], show); err != nil {
			panic(err)
		}
	}
	fmt.Println("duplicates dropped:", in.Stats().Duplicates)
	// Output:
	// refused: events: malformed input: Kind(2) body: a score of 2 bytes
	// #1 tick 40 join [98 111]
	// #2 tick 41 score [2 10]
	// #3 tick 41 score [5 3]
	// duplicates dropped: 1
}
