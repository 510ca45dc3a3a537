package datachan

import (
	"testing"

	"github.com/sightline-game/sightline/netcode/transport"
)

func TestSendCountersStats(t *testing.T) {
	in := NewInbox(Config{})
	var c SendCounters
	c.Sent(10)
	c.Sent(5)
	c.Congested()
	in.Push(transport.Events, []byte("abc"))
	want := transport.Stats{SentMessages: 2, SentBytes: 15, Congested: 1, ReceivedMessages: 1, ReceivedBytes: 3}
	if got := c.Stats(in); got != want {
		t.Fatalf("stats %+v, want %+v", got, want)
	}
}
