package events_test

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/events"
)

// The server numbers and frames events; the client's goroutines hand the
// datagrams over in the wrong order, and one twice. The Inbox still
// delivers each event once, in order.
func Example() {
	out := events.NewOutbox(0) // server side, one per connection
	var body []byte
	body = events.AppendJoin(body[:0], events.Join{Player: 2, Name: "bo"})
	out.Push(events.Event{Kind: events.KindJoin, Tick: 40, Body: body})
	body = events.AppendHit(body[:0], events.Hit{Attacker: 2, Target: 5, Damage: 25})
	out.Push(events.Event{Kind: events.KindHit, Tick: 41, Body: body})
	body = events.AppendKill(body[:0], events.Kill{Killer: 2, Victim: 5, Weapon: 1})
	out.Push(events.Event{Kind: events.KindKill, Tick: 41, Body: body})

	var datagrams [][]byte
	for {
		p, n := out.AppendNext(nil, 12) // a tiny budget: one event each
		if n == 0 {
			break
		}
		datagrams = append(datagrams, p)
	}

	in := events.NewInbox(0) // client side
	show := func(e events.Event) {
		fmt.Printf("#%d tick %d %v\n", e.Seq, e.Tick, e.Kind)
	}
	for _, i := range []int{2, 0, 0, 1} {
		if err := in.Handle(datagrams[i], show); err != nil {
			panic(err)
		}
	}
	fmt.Println("duplicates dropped:", in.Stats().Duplicates)
	// Output:
	// #1 tick 40 join
	// #2 tick 41 hit
	// #3 tick 41 kill
	// duplicates dropped: 1
}

func ExampleCleanChat() {
	fmt.Printf("%q\n", events.CleanChat("  gg\u202e wp\x07\r\nrematch? 🎉 "))
	fmt.Printf("%+q\n", events.CleanChat("bad\xff\xfebytes"))
	// Output:
	// "gg wp  rematch? 🎉"
	// "bad\ufffdbytes"
}
