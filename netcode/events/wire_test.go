package events_test

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/sightline-game/sightline/netcode/events"
)

func datagram(first uint32, evs ...events.Event) []byte {
	p := events.AppendDatagramHeader(nil, first)
	for _, e := range evs {
		p = events.AppendEvent(p, e)
	}
	return p
}

func TestKindString(t *testing.T) {
	for k, want := range map[events.Kind]string{0: "Kind(0)", 1: "Kind(1)", 200: "Kind(200)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

// The Validator decides which bodies pass; without one any body up to
// MaxBody does, and kind 0 never does.
func TestValidator(t *testing.T) {
	bad := []byte{events.TypeEvents, 1, byte(kindShot), 0, 1, 1} // a shot of one byte
	if _, err := events.ParseDatagram(bad, validBody); !errors.Is(err, events.ErrMalformed) || !errors.Is(err, errBody) {
		t.Errorf("refused body: %v, want ErrMalformed and the validator's error", err)
	}
	if _, err := events.ParseDatagram(bad, nil); err != nil {
		t.Errorf("no validator: %v", err)
	}
	zero := []byte{events.TypeEvents, 1, 0, 0, 0}
	if _, err := events.ParseDatagram(zero, func(events.Kind, []byte) error { return nil }); !errors.Is(err, events.ErrMalformed) {
		t.Errorf("kind 0 with a lenient validator: %v", err)
	}
	ob, in := events.NewOutbox(events.OutboxConfig{}), events.NewInbox(events.InboxConfig{})
	if err := ob.Push(events.Event{Kind: kindShot, Body: []byte{1}}); err != nil {
		t.Fatalf("push without a validator: %v", err)
	}
	p, _ := ob.AppendNext(nil, 0)
	n := 0
	if err := in.Handle(p, func(events.Event) { n++ }); err != nil || n != 1 {
		t.Fatalf("inbox without a validator: %v, %d delivered", err, n)
	}
	if err := newOutbox(0).Push(events.Event{Kind: kindShot, Body: []byte{1}}); !errors.Is(err, events.ErrMalformed) || !errors.Is(err, errBody) {
		t.Errorf("push of a refused body: %v", err)
	}
	if err := newInbox(0).Handle(p, nil); !errors.Is(err, errBody) {
		t.Errorf("inbox took a refused body: %v", err)
	}
}

func TestDatagramRoundTrip(t *testing.T) {
	evs := []events.Event{
		shotEvent(100, shot{1, 2, 10}),
		sayEvent(100, "hello"),
		{Kind: 77, Tick: math.MaxUint32, Body: []byte("game-defined")},
		{Kind: 78, Tick: 0, Body: nil},
	}
	p := datagram(500, evs...)
	d, err := events.ParseDatagram(p, validBody)
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 4 || d.First() != 500 {
		t.Fatalf("%d events from %d", d.Len(), d.First())
	}
	for i, want := range evs {
		got, ok := d.Next()
		if !ok || got.Seq != 500+uint32(i) || got.Kind != want.Kind || got.Tick != want.Tick || !bytes.Equal(got.Body, want.Body) {
			t.Fatalf("event %d: %+v, want %+v", i, got, want)
		}
	}
	if _, ok := d.Next(); ok {
		t.Fatal("event after the last")
	}
}

func TestDatagramRejects(t *testing.T) {
	good := datagram(1, shotEvent(5, shot{1, 2, 3}))
	for _, tc := range []struct {
		name string
		p    []byte
		want error
	}{
		{"empty", nil, events.ErrShort},
		{"stray", []byte{0x52, 1, 1, 0, 0}, events.ErrWrongType},
		{"no events", events.AppendDatagramHeader(nil, 1), events.ErrMalformed},
		{"seq 0", datagram(0, events.Event{Kind: 9}), events.ErrMalformed},
		{"kind 0", []byte{events.TypeEvents, 1, 0, 0, 0}, events.ErrMalformed},
		{"cut body", good[:len(good)-1], events.ErrShort},
		{"trailing byte", append(append([]byte{}, good...), 9), events.ErrShort},
		{"body the game refuses", []byte{events.TypeEvents, 1, byte(kindShot), 0, 1, 1}, errBody},
		{"body over MaxBody", append([]byte{events.TypeEvents, 1, 9, 0, 0x81, 0x08}, make([]byte, 1025)...), events.ErrMalformed},
		{"claims a huge body", []byte{events.TypeEvents, 1, 9, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}, events.ErrMalformed},
		{"non-canonical seq", []byte{events.TypeEvents, 0x81, 0x00, 9, 0, 0}, events.ErrMalformed},
		{"seq overflow", datagram(math.MaxUint32, events.Event{Kind: 9}, events.Event{Kind: 9}), events.ErrMalformed},
	} {
		if _, err := events.ParseDatagram(tc.p, validBody); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// FuzzEventsDatagram checks that every datagram ParseDatagram accepts
// re-encodes to the same bytes and that an Inbox in the middle of a stream
// takes any datagram without panicking, delivering in order.
func FuzzEventsDatagram(f *testing.F) {
	f.Add(datagram(1, shotEvent(5, shot{1, 2, 3})))
	f.Add(datagram(3, sayEvent(7, "hi"), events.Event{Kind: 200, Tick: 1 << 20, Body: []byte{1, 2, 3}},
		events.Event{Kind: kindOver, Tick: 9, Body: []byte{5}}))
	f.Add([]byte{events.TypeEvents, 0x80})
	f.Fuzz(func(t *testing.T, p []byte) {
		d, err := events.ParseDatagram(p, validBody)
		if err == nil {
			q := events.AppendDatagramHeader(nil, d.First())
			seq := d.First()
			for e, ok := d.Next(); ok; e, ok = d.Next() {
				if e.Seq != seq || e.Kind == 0 || len(e.Body) > events.MaxBody || validBody(e.Kind, e.Body) != nil {
					t.Fatalf("event %+v at seq %d", e, seq)
				}
				seq++
				q = events.AppendEvent(q, e)
			}
			if !bytes.Equal(p, q) {
				t.Fatalf("re-encoded\n%x\nwant\n%x", q, p)
			}
		}
		in := newInbox(8)
		if err := in.Handle(datagram(1, events.Event{Kind: 9}, events.Event{Kind: 9}), nil); err != nil {
			t.Fatal(err)
		}
		want := in.Next()
		herr := in.Handle(p, func(e events.Event) {
			if e.Seq != want {
				t.Fatalf("delivered %d, want %d", e.Seq, want)
			}
			want++
		})
		if err != nil && herr == nil {
			t.Fatalf("Inbox accepted what ParseDatagram rejects: %v", err)
		}
		if in.Held() > 8 {
			t.Fatalf("%d held, window 8", in.Held())
		}
	})
}
