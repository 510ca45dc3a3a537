package datachan

import (
	"sync"
	"testing"

	"github.com/sightline-game/sightline/netcode/transport"
)

func TestInboxEventsOverflow(t *testing.T) {
	in := NewInbox(Config{ReceiveQueueLen: 3})
	for i := range 3 {
		if !in.Push(transport.Events, []byte{byte(i)}) {
			t.Fatalf("event %d refused with room left", i)
		}
	}
	// Unreliable messages that find no room are dropped and counted.
	if !in.Push(transport.Snapshots, []byte{9}) {
		t.Fatal("a snapshot into a queue full of events must be dropped, not refused")
	}
	if in.Push(transport.Events, []byte{3}) {
		t.Fatal("an event into a queue full of events was accepted")
	}
	msgs, bytes, dropped := in.Counts()
	if msgs != 5 || bytes != 5 || dropped != 1 {
		t.Fatalf("counts %d messages, %d bytes, %d dropped; want 5, 5, 1", msgs, bytes, dropped)
	}
	var got []byte
	if n := in.Receive(func(ch transport.Channel, p []byte) { got = append(got, p[0]) }); n != 3 {
		t.Fatalf("received %d, want 3", n)
	}
	if string(got) != "\x00\x01\x02" {
		t.Fatalf("received %v, want the three first events in order", got)
	}
}

func TestInboxStop(t *testing.T) {
	in := NewInbox(Config{})
	in.Push(transport.Events, []byte("kept"))
	in.Stop()
	if !in.Push(transport.Events, []byte("late")) {
		t.Fatal("a push after Stop must be ignored, not refused")
	}
	var got []string
	in.Receive(func(_ transport.Channel, p []byte) { got = append(got, string(p)) })
	if len(got) != 1 || got[0] != "kept" {
		t.Fatalf("after Stop received %q, want only what came before", got)
	}
	if msgs, _, _ := in.Counts(); msgs != 1 {
		t.Fatalf("counted %d messages, want 1 (the late one never arrived)", msgs)
	}
}

// TestInboxConcurrent pushes from one goroutine per channel while another
// receives: every message arrives once, each channel's in its push order.
func TestInboxConcurrent(t *testing.T) {
	const perChannel = 2000
	in := NewInbox(Config{ReceiveQueueLen: 1 << 16, ReceiveQueueBytes: 1 << 24})
	var wg sync.WaitGroup
	for ch := range transport.Channel(transport.NumChannels) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perChannel {
				in.Push(ch, []byte{byte(ch), byte(i), byte(i >> 8)})
			}
		}()
	}
	var next [transport.NumChannels]int
	check := func(ch transport.Channel, p []byte) {
		if i := int(p[1]) | int(p[2])<<8; p[0] != byte(ch) || i != next[ch] {
			t.Fatalf("channel %v: got message %d (tag %d), want %d", ch, i, p[0], next[ch])
		}
		next[ch]++
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for finished := false; !finished; {
		select {
		case <-done:
			finished = true
		default:
		}
		in.Receive(check)
	}
	in.Receive(check)
	for ch, n := range next {
		if n != perChannel {
			t.Errorf("channel %d: received %d, want %d", ch, n, perChannel)
		}
	}
}

func TestConfigCongested(t *testing.T) {
	c := Config{}.WithDefaults()
	for _, tc := range []struct {
		ch       transport.Channel
		buffered uint64
		n        int
		want     bool
	}{
		{transport.Snapshots, 0, 16 << 10, false}, // an empty buffer takes anything
		{transport.Snapshots, 1, DefaultUnreliableBufferLimit - 1, false},
		{transport.Snapshots, 1, DefaultUnreliableBufferLimit, true},
		{transport.Events, DefaultUnreliableBufferLimit, 1000, false}, // events have the larger limit
		{transport.Events, DefaultSendBufferLimit - 10, 11, true},
	} {
		if got := c.Congested(tc.ch, tc.buffered, tc.n); got != tc.want {
			t.Errorf("Congested(%v, %d, %d) = %v, want %v", tc.ch, tc.buffered, tc.n, got, tc.want)
		}
	}
}
