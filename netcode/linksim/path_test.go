package linksim

import (
	"slices"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
)

// got is one message handed to a Deliver callback.
type got struct {
	ch  transport.Channel
	msg string
}

func newPath(t *testing.T, cfg Config) *Path {
	t.Helper()
	p, err := NewPath(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// collect delivers everything due at now and returns it.
func collect(p *Path, now time.Duration) []got {
	var out []got
	p.Deliver(now, func(ch transport.Channel, msg []byte) bool {
		out = append(out, got{ch, string(msg)})
		return true
	})
	return out
}

func TestNewPathRejectsBadConfig(t *testing.T) {
	if _, err := NewPath(Config{Loss: 2}, 1); err == nil {
		t.Fatal("Loss 2 accepted")
	}
}

func TestPathSendCopies(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		ch   transport.Channel
		want int
	}{
		{"perfect link", Config{}, transport.Snapshots, 1},
		{"lost", Config{Loss: 1}, transport.Inputs, 0},
		{"dropped for a full queue", Config{MaxQueue: 1}, transport.Replicas, 0}, // second send
		{"duplicated", Config{Duplicate: 1}, transport.Snapshots, 2},
		{"events are never lost", Config{Loss: 1, Duplicate: 1}, transport.Events, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPath(t, tc.cfg)
			if tc.cfg.MaxQueue == 1 {
				p.Send(0, tc.ch, []byte("x")) // fills the queue
			}
			if n := p.Send(0, tc.ch, []byte("msg")); n != tc.want {
				t.Fatalf("Send = %d copies, want %d", n, tc.want)
			}
		})
	}
}

func TestPathDeliversTaggedInArrivalOrder(t *testing.T) {
	p := newPath(t, Config{Latency: 10 * ms})
	p.Send(0, transport.Snapshots, []byte("s0"))
	p.Send(0, transport.Events, []byte("e0")) // same arrival: after the link packet
	p.Send(2*ms, transport.Replicas, []byte("r2"))
	p.Send(3*ms, transport.Events, []byte("e3"))
	p.Send(3*ms, transport.Inputs, nil) // an empty message keeps its channel
	if !p.Pending() || p.Events() != 2 {
		t.Fatalf("Pending %v, Events %d", p.Pending(), p.Events())
	}
	if at, ok := p.NextArrival(); !ok || at != 10*ms {
		t.Fatalf("NextArrival = %v %v, want 10ms", at, ok)
	}
	if g := collect(p, 9*ms); len(g) != 0 {
		t.Fatalf("delivered early: %v", g)
	}
	want := []got{
		{transport.Snapshots, "s0"},
		{transport.Events, "e0"},
		{transport.Replicas, "r2"},
	}
	if g := collect(p, 12*ms); !slices.Equal(g, want) {
		t.Fatalf("at 12ms got %v, want %v", g, want)
	}
	want = []got{{transport.Inputs, ""}, {transport.Events, "e3"}}
	if g := collect(p, time.Second); !slices.Equal(g, want) {
		t.Fatalf("at 1s got %v, want %v", g, want)
	}
	if p.Pending() {
		t.Fatal("still pending")
	}
	if _, ok := p.NextArrival(); ok {
		t.Fatal("NextArrival on an empty path")
	}
	if s := p.Link().Stats(); s.Sent != 3 || s.Delivered != 3 {
		t.Fatalf("link stats %+v: events must not use the link", s)
	}
}

func TestPathEventsFollowLatencyButKeepOrder(t *testing.T) {
	p := newPath(t, Config{Latency: 50 * ms})
	p.Send(0, transport.Events, []byte("slow"))
	if err := p.Link().SetConfig(Config{Latency: 5 * ms}); err != nil {
		t.Fatal(err)
	}
	p.Send(ms, transport.Events, []byte("fast"))
	p.Send(ms, transport.Snapshots, []byte("snap"))
	if g := collect(p, 10*ms); !slices.Equal(g, []got{{transport.Snapshots, "snap"}}) {
		t.Fatalf("at 10ms got %v: an event overtook an earlier one", g)
	}
	want := []got{{transport.Events, "slow"}, {transport.Events, "fast"}}
	if g := collect(p, 50*ms); !slices.Equal(g, want) {
		t.Fatalf("at 50ms got %v, want %v", g, want)
	}
}

func TestPathRefusedEventBlocksLaterEvents(t *testing.T) {
	p := newPath(t, Config{})
	p.Send(0, transport.Events, []byte("e1"))
	p.Send(0, transport.Events, []byte("e2"))
	p.Send(ms, transport.Snapshots, []byte("s"))
	var g []got
	refuse := func(ch transport.Channel, msg []byte) bool {
		g = append(g, got{ch, string(msg)})
		return !ch.Reliable()
	}
	p.Deliver(ms, refuse)
	want := []got{{transport.Events, "e1"}, {transport.Snapshots, "s"}}
	if !slices.Equal(g, want) {
		t.Fatalf("got %v, want %v (e1 offered once, e2 held behind it)", g, want)
	}
	if p.Events() != 2 {
		t.Fatalf("%d events queued, want 2", p.Events())
	}
	want = []got{{transport.Events, "e1"}, {transport.Events, "e2"}}
	if g := collect(p, ms); !slices.Equal(g, want) {
		t.Fatalf("retry got %v, want %v", g, want)
	}
}

func TestPathLargeMessage(t *testing.T) {
	p := newPath(t, Config{})
	big := make([]byte, 2*transport.MaxMessageSize)
	big[len(big)-1] = 7
	p.Send(0, transport.Snapshots, big)
	p.Deliver(0, func(ch transport.Channel, msg []byte) bool {
		if ch != transport.Snapshots || len(msg) != len(big) || msg[len(msg)-1] != 7 {
			t.Fatalf("got channel %v, %d bytes", ch, len(msg))
		}
		return true
	})
}

func TestPathNoAllocsWhenWarm(t *testing.T) {
	p := newPath(t, Config{Latency: ms, Jitter: ms, Duplicate: 0.1})
	var b Batch
	msg := make([]byte, 600)
	now := time.Duration(0)
	add := b.Add // a method value made once, as a caller keeps it
	step := func() {
		b.Reset()
		for ch := range transport.Channel(transport.NumChannels) {
			p.Send(now, ch, msg)
		}
		now += 5 * ms
		p.Deliver(now, add)
	}
	for range 100 {
		step()
	}
	if n := testing.AllocsPerRun(200, step); n != 0 {
		t.Fatalf("%v allocations per step", n)
	}
	if b.Len() < transport.NumChannels {
		t.Fatalf("batch holds %d messages", b.Len())
	}
}

func TestBatch(t *testing.T) {
	var b Batch
	src := []byte("abc")
	if !b.Add(transport.Inputs, src) || !b.Add(transport.Events, []byte("de")) {
		t.Fatal("Add refused a message")
	}
	src[0] = 'x'
	if b.Len() != 2 {
		t.Fatalf("Len = %d", b.Len())
	}
	if ch, p := b.At(0); ch != transport.Inputs || string(p) != "abc" {
		t.Fatalf("At(0) = %v %q: Add must copy", ch, p)
	}
	if ch, p := b.At(1); ch != transport.Events || string(p) != "de" {
		t.Fatalf("At(1) = %v %q", ch, p)
	}
	b.Reset()
	b.Add(transport.Snapshots, []byte("z"))
	if ch, p := b.At(0); b.Len() != 1 || ch != transport.Snapshots || string(p) != "z" {
		t.Fatalf("after Reset: Len %d, At(0) = %v %q", b.Len(), ch, p)
	}
}
