package events_test

import (
	"bytes"
	"errors"
	"math"
	"testing"
	"unicode/utf8"

	"github.com/sightline-game/sightline/netcode/events"
)

func datagram(first uint32, evs ...events.Event) []byte {
	p := events.AppendDatagramHeader(nil, first)
	for _, e := range evs {
		p = events.AppendEvent(p, e)
	}
	return p
}

func hitEvent(tick uint32, h events.Hit) events.Event {
	return events.Event{Kind: events.KindHit, Tick: tick, Body: events.AppendHit(nil, h)}
}

func chatEvent(tick uint32, from uint32, text string) events.Event {
	return events.Event{Kind: events.KindChat, Tick: tick, Body: events.AppendChat(nil, events.Chat{From: from, Text: text})}
}

func TestKindString(t *testing.T) {
	for k, want := range map[events.Kind]string{
		events.KindHit: "hit", events.KindKill: "kill", events.KindJoin: "join", events.KindLeave: "leave",
		events.KindChat: "chat", events.KindRoundOver: "round-over", 0: "Kind(0)", 200: "Kind(200)",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func TestBodiesRoundTrip(t *testing.T) {
	h := events.Hit{Attacker: 3, Target: math.MaxUint32, Damage: 65535}
	if got, err := events.ParseHit(events.AppendHit(nil, h)); err != nil || got != h {
		t.Errorf("hit %+v %v", got, err)
	}
	k := events.Kill{Killer: 1, Victim: 2, Weapon: 7}
	if got, err := events.ParseKill(events.AppendKill(nil, k)); err != nil || got != k {
		t.Errorf("kill %+v %v", got, err)
	}
	j := events.Join{Player: 9, Name: "Ada Lovelace"}
	if got, err := events.ParseJoin(events.AppendJoin(nil, j)); err != nil || got != j {
		t.Errorf("join %+v %v", got, err)
	}
	l := events.Leave{Player: 9, Reason: events.LeaveKicked}
	if got, err := events.ParseLeave(events.AppendLeave(nil, l)); err != nil || got != l {
		t.Errorf("leave %+v %v", got, err)
	}
	c := events.Chat{From: 4, Text: "gg 🎉"}
	if got, err := events.ParseChat(events.AppendChat(nil, c)); err != nil || got != c {
		t.Errorf("chat %+v %v", got, err)
	}
	r := events.RoundOver{Round: 12, Winner: 2}
	if got, err := events.ParseRoundOver(events.AppendRoundOver(nil, r)); err != nil || got != r {
		t.Errorf("round over %+v %v", got, err)
	}
}

func TestBodiesReject(t *testing.T) {
	hit := events.AppendHit(nil, events.Hit{Attacker: 1, Target: 2, Damage: 3})
	for _, tc := range []struct {
		name string
		kind events.Kind
		body []byte
		want error
	}{
		{"hit cut", events.KindHit, hit[:2], events.ErrShort},
		{"hit trailing", events.KindHit, append(append([]byte{}, hit...), 0), events.ErrMalformed},
		{"damage over 16 bits", events.KindHit, []byte{1, 2, 0x80, 0x80, 0x04}, events.ErrMalformed},
		{"kill without weapon", events.KindKill, []byte{1, 2}, events.ErrShort},
		{"chat too long", events.KindChat, append([]byte{1, 0xe9, 0x02}, make([]byte, 361)...), events.ErrMalformed},
		{"chat cut", events.KindChat, []byte{1, 5, 'a', 'b'}, events.ErrShort},
		{"name too long", events.KindJoin, append([]byte{1, 65}, make([]byte, 65)...), events.ErrMalformed},
		{"kind 0", 0, nil, events.ErrMalformed},
		{"empty round over", events.KindRoundOver, nil, events.ErrShort},
	} {
		if err := events.ValidateBody(tc.kind, tc.body); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if err := events.ValidateBody(200, []byte("anything")); err != nil {
		t.Errorf("unknown kind checked: %v", err)
	}
}

func TestDatagramRoundTrip(t *testing.T) {
	evs := []events.Event{
		hitEvent(100, events.Hit{Attacker: 1, Target: 2, Damage: 10}),
		chatEvent(100, 1, "hello"),
		{Kind: 77, Tick: math.MaxUint32, Body: []byte("game-defined")},
		{Kind: 78, Tick: 0, Body: nil},
	}
	p := datagram(500, evs...)
	d, err := events.ParseDatagram(p)
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
	good := datagram(1, hitEvent(5, events.Hit{Attacker: 1, Target: 2, Damage: 3}))
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
		{"bad known body", []byte{events.TypeEvents, 1, byte(events.KindKill), 0, 1, 1}, events.ErrShort},
		{"body over MaxBody", append([]byte{events.TypeEvents, 1, 9, 0, 0x81, 0x08}, make([]byte, 1025)...), events.ErrMalformed},
		{"claims a huge body", []byte{events.TypeEvents, 1, 9, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}, events.ErrMalformed},
		{"non-canonical seq", []byte{events.TypeEvents, 0x81, 0x00, 9, 0, 0}, events.ErrMalformed},
		{"seq overflow", datagram(math.MaxUint32, events.Event{Kind: 9}, events.Event{Kind: 9}), events.ErrMalformed},
	} {
		if _, err := events.ParseDatagram(tc.p); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// FuzzEventsDatagram checks that every datagram ParseDatagram accepts
// re-encodes to the same bytes and that an Inbox in the middle of a stream
// takes any datagram without panicking, delivering in order.
func FuzzEventsDatagram(f *testing.F) {
	f.Add(datagram(1, hitEvent(5, events.Hit{Attacker: 1, Target: 2, Damage: 3})))
	f.Add(datagram(3, chatEvent(7, 1, "hi"), events.Event{Kind: 200, Tick: 1 << 20, Body: []byte{1, 2, 3}},
		events.Event{Kind: events.KindJoin, Tick: 9, Body: events.AppendJoin(nil, events.Join{Player: 5, Name: "bo"})}))
	f.Add([]byte{events.TypeEvents, 0x80})
	f.Fuzz(func(t *testing.T, p []byte) {
		d, err := events.ParseDatagram(p)
		if err == nil {
			q := events.AppendDatagramHeader(nil, d.First())
			seq := d.First()
			for e, ok := d.Next(); ok; e, ok = d.Next() {
				if e.Seq != seq || e.Kind == 0 || len(e.Body) > events.MaxBody {
					t.Fatalf("event %+v at seq %d", e, seq)
				}
				seq++
				q = events.AppendEvent(q, e)
			}
			if !bytes.Equal(p, q) {
				t.Fatalf("re-encoded\n%x\nwant\n%x", q, p)
			}
		}
		in := events.NewInbox(8)
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

// FuzzBodies checks that ValidateBody and the Parse functions agree and that
// every body they accept re-encodes to the same bytes.
func FuzzBodies(f *testing.F) {
	f.Add(byte(events.KindHit), events.AppendHit(nil, events.Hit{Attacker: 1, Target: 300, Damage: 25}))
	f.Add(byte(events.KindKill), events.AppendKill(nil, events.Kill{Killer: 1, Victim: 2, Weapon: 3}))
	f.Add(byte(events.KindJoin), events.AppendJoin(nil, events.Join{Player: 1, Name: "ann"}))
	f.Add(byte(events.KindLeave), events.AppendLeave(nil, events.Leave{Player: 1, Reason: 2}))
	f.Add(byte(events.KindChat), events.AppendChat(nil, events.Chat{From: 1, Text: "hi"}))
	f.Add(byte(events.KindRoundOver), events.AppendRoundOver(nil, events.RoundOver{Round: 1, Winner: 2}))
	f.Fuzz(func(t *testing.T, kind byte, body []byte) {
		k := events.Kind(kind)
		verr := events.ValidateBody(k, body)
		var q []byte
		var perr error
		switch k {
		case events.KindHit:
			var v events.Hit
			if v, perr = events.ParseHit(body); perr == nil {
				q = events.AppendHit(nil, v)
			}
		case events.KindKill:
			var v events.Kill
			if v, perr = events.ParseKill(body); perr == nil {
				q = events.AppendKill(nil, v)
			}
		case events.KindJoin:
			var v events.Join
			if v, perr = events.ParseJoin(body); perr == nil {
				q = events.AppendJoin(nil, v)
			}
		case events.KindLeave:
			var v events.Leave
			if v, perr = events.ParseLeave(body); perr == nil {
				q = events.AppendLeave(nil, v)
			}
		case events.KindChat:
			var v events.Chat
			if v, perr = events.ParseChat(body); perr == nil {
				q = events.AppendChat(nil, v)
			}
		case events.KindRoundOver:
			var v events.RoundOver
			if v, perr = events.ParseRoundOver(body); perr == nil {
				q = events.AppendRoundOver(nil, v)
			}
		default:
			if (verr == nil) != (k != 0) {
				t.Fatalf("kind %d: %v", k, verr)
			}
			return
		}
		if (verr == nil) != (perr == nil) {
			t.Fatalf("kind %v: ValidateBody %v, Parse %v", k, verr, perr)
		}
		if perr == nil && !bytes.Equal(q, body) {
			t.Fatalf("kind %v re-encoded %x, want %x", k, q, body)
		}
	})
}

// FuzzCleanChat checks CleanChat's promises on any input.
func FuzzCleanChat(f *testing.F) {
	for _, s := range []string{"hello", "  a\tb\n", "\u202eevil", "\xff\xfe", "👨\u200d👩\u200d👧", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := events.CleanChat(s)
		if !utf8.ValidString(c) || len(c) > events.MaxChatBytes || utf8.RuneCountInString(c) > events.MaxChatRunes {
			t.Fatalf("CleanChat(%q) = %q: invalid or too long", s, c)
		}
		for _, r := range c {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) ||
				(r >= 0x2066 && r <= 0x2069) || r == 0x2028 || r == 0x2029 {
				t.Fatalf("CleanChat(%q) = %q keeps %U", s, c, r)
			}
		}
		if again := events.CleanChat(c); again != c {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, c, again)
		}
	})
}
