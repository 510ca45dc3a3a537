package protocol_test

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/events"
)

func TestKindName(t *testing.T) {
	for k, want := range map[events.Kind]string{
		protocol.KindHit: "hit", protocol.KindKill: "kill", protocol.KindJoin: "join", protocol.KindLeave: "leave",
		protocol.KindChat: "chat", protocol.KindRoundOver: "round-over", protocol.KindWatch: "watch", protocol.KindWelcome: "welcome", 0: "Kind(0)", 200: "Kind(200)",
	} {
		if got := protocol.KindName(k); got != want {
			t.Errorf("KindName(%d) = %q, want %q", k, got, want)
		}
	}
}

func TestBodiesRoundTrip(t *testing.T) {
	h := protocol.Hit{Attacker: 3, Target: math.MaxUint32, Damage: 65535}
	if got, err := protocol.ParseHit(protocol.AppendHit(nil, h)); err != nil || got != h {
		t.Errorf("hit %+v %v", got, err)
	}
	k := protocol.Kill{Killer: 1, Victim: 2, Weapon: 7, Judged: protocol.JudgedRewound | protocol.JudgedBounded | protocol.JudgedClamped,
		Behind: protocol.MaxJudgedBehind, X: uint16(protocol.PosQuant.Top()), Y: 0}
	if got, err := protocol.ParseKill(protocol.AppendKill(nil, k)); err != nil || got != k {
		t.Errorf("kill %+v %v", got, err)
	}
	j := protocol.Join{Player: 9, Name: "Ada Lovelace"}
	if got, err := protocol.ParseJoin(protocol.AppendJoin(nil, j)); err != nil || got != j {
		t.Errorf("join %+v %v", got, err)
	}
	l := protocol.Leave{Player: 9, Reason: protocol.LeaveKicked}
	if got, err := protocol.ParseLeave(protocol.AppendLeave(nil, l)); err != nil || got != l {
		t.Errorf("leave %+v %v", got, err)
	}
	c := protocol.Chat{From: 4, Text: "gg 🎉"}
	if got, err := protocol.ParseChat(protocol.AppendChat(nil, c)); err != nil || got != c {
		t.Errorf("chat %+v %v", got, err)
	}
	r := protocol.RoundOver{Round: 12, Winner: 2}
	if got, err := protocol.ParseRoundOver(protocol.AppendRoundOver(nil, r)); err != nil || got != r {
		t.Errorf("round over %+v %v", got, err)
	}
	w := protocol.Watch{Mode: protocol.WatchFree, Player: 0, Slot: 65535, X: 1 << 20, Y: 5}
	if got, err := protocol.ParseWatch(protocol.AppendWatch(nil, w)); err != nil || got != w {
		t.Errorf("watch %+v %v", got, err)
	}
}

func TestBodiesReject(t *testing.T) {
	hit := protocol.AppendHit(nil, protocol.Hit{Attacker: 1, Target: 2, Damage: 3})
	for _, tc := range []struct {
		name string
		kind events.Kind
		body []byte
		want error
	}{
		{"hit cut", protocol.KindHit, hit[:2], protocol.ErrEventBody},
		{"hit trailing", protocol.KindHit, append(append([]byte{}, hit...), 0), protocol.ErrEventBody},
		{"damage over 16 bits", protocol.KindHit, []byte{1, 2, 0x80, 0x80, 0x04}, protocol.ErrEventBody},
		{"kill without weapon", protocol.KindKill, []byte{1, 2}, protocol.ErrEventBody},
		{"kill without judgement (version 6)", protocol.KindKill, []byte{1, 2, 0}, protocol.ErrEventBody},
		{"kill without y", protocol.KindKill, []byte{1, 2, 0, 1, 5, 6}, protocol.ErrEventBody},
		{"kill judged bit 3", protocol.KindKill, []byte{1, 2, 0, 8, 5, 6, 7, 0}, protocol.ErrEventBody},
		{"kill behind over 16 bits", protocol.KindKill, []byte{1, 2, 0, 1, 0x80, 0x80, 0x04, 6, 7, 0}, protocol.ErrEventBody},
		{"kill x past the world", protocol.KindKill, []byte{1, 2, 0, 1, 5, 0x81, 0x80, 0x02, 7, 0}, protocol.ErrEventBody},
		{"kill without by", protocol.KindKill, []byte{1, 2, 0, 1, 5, 6, 7}, protocol.ErrEventBody},
		{"kill by past 2^16", protocol.KindKill, []byte{1, 2, 0, 1, 5, 6, 7, 0x81, 0x80, 0x04}, protocol.ErrEventBody},
		{"kill trailing", protocol.KindKill, []byte{1, 2, 0, 1, 5, 6, 7, 0, 0}, protocol.ErrEventBody},
		{"chat too long", protocol.KindChat, append([]byte{1, 0xe9, 0x02}, make([]byte, 361)...), protocol.ErrEventBody},
		{"chat cut", protocol.KindChat, []byte{1, 5, 'a', 'b'}, protocol.ErrEventBody},
		{"name too long", protocol.KindJoin, append([]byte{1, 65}, make([]byte, 65)...), protocol.ErrEventBody},
		{"empty round over", protocol.KindRoundOver, nil, protocol.ErrEventBody},
		{"watch without y", protocol.KindWatch, []byte{protocol.WatchFree, 0, 0, 5}, protocol.ErrEventBody},
		{"watch trailing", protocol.KindWatch, []byte{protocol.WatchFollow, 3, 0, 0, 0, 0}, protocol.ErrEventBody},
		{"watch slot over 16 bits", protocol.KindWatch, []byte{protocol.WatchFollow, 3, 0x80, 0x80, 0x04, 0, 0}, protocol.ErrEventBody},
	} {
		if err := protocol.ValidateEventBody(tc.kind, tc.body); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	for _, k := range []events.Kind{protocol.KindWelcome, 200} {
		if err := protocol.ValidateEventBody(k, []byte("anything")); err != nil {
			t.Errorf("kind %d checked: %v", k, err)
		}
	}
	// Given to an Inbox, it rejects a datagram holding a bad body whole.
	in := events.NewInbox(events.InboxConfig{Validate: protocol.ValidateEventBody})
	p := []byte{events.TypeEvents, 1, byte(protocol.KindKill), 0, 1, 1}
	if err := in.Handle(p, nil); !errors.Is(err, events.ErrMalformed) || !errors.Is(err, protocol.ErrEventBody) {
		t.Errorf("a cut kill body: %v", err)
	}
}

// ValidateEventBody allocates nothing for a good body: it runs on every
// event the Outbox and Inbox take.
func TestValidateEventBodyDoesNotAllocate(t *testing.T) {
	bodies := map[events.Kind][]byte{
		protocol.KindHit:       protocol.AppendHit(nil, protocol.Hit{Attacker: 1, Target: 2, Damage: 30}),
		protocol.KindKill:      protocol.AppendKill(nil, protocol.Kill{Killer: 1, Victim: 2, Weapon: 1, Judged: protocol.JudgedRewound, Behind: 2000, X: 300, Y: 30000}),
		protocol.KindJoin:      protocol.AppendJoin(nil, protocol.Join{Player: 1, Name: "ada"}),
		protocol.KindLeave:     protocol.AppendLeave(nil, protocol.Leave{Player: 1}),
		protocol.KindChat:      protocol.AppendChat(nil, protocol.Chat{From: 1, Text: "nice shot"}),
		protocol.KindRoundOver: protocol.AppendRoundOver(nil, protocol.RoundOver{Round: 1, Winner: 2}),
		protocol.KindWatch:     protocol.AppendWatch(nil, protocol.Watch{Player: 3}),
	}
	for k, body := range bodies {
		if n := testing.AllocsPerRun(100, func() {
			if err := protocol.ValidateEventBody(k, body); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations", protocol.KindName(k), n)
		}
	}
}

// FuzzBodies checks that ValidateEventBody and the Parse functions agree and that
// every body they accept re-encodes to the same bytes.
func FuzzBodies(f *testing.F) {
	f.Add(byte(protocol.KindHit), protocol.AppendHit(nil, protocol.Hit{Attacker: 1, Target: 300, Damage: 25}))
	f.Add(byte(protocol.KindKill), protocol.AppendKill(nil, protocol.Kill{Killer: 1, Victim: 2, Weapon: 3}))
	f.Add(byte(protocol.KindKill), protocol.AppendKill(nil, protocol.Kill{Killer: 1, Victim: 2, Weapon: 2, Judged: protocol.JudgedRewound | protocol.JudgedBounded, Behind: 2176, X: 8004, Y: 32767, By: 302}))
	f.Add(byte(protocol.KindJoin), protocol.AppendJoin(nil, protocol.Join{Player: 1, Name: "ann"}))
	f.Add(byte(protocol.KindLeave), protocol.AppendLeave(nil, protocol.Leave{Player: 1, Reason: 2}))
	f.Add(byte(protocol.KindChat), protocol.AppendChat(nil, protocol.Chat{From: 1, Text: "hi"}))
	f.Add(byte(protocol.KindRoundOver), protocol.AppendRoundOver(nil, protocol.RoundOver{Round: 1, Winner: 2}))
	f.Add(byte(protocol.KindWatch), protocol.AppendWatch(nil, protocol.Watch{Mode: protocol.WatchFree, X: 70000, Y: 3}))
	f.Fuzz(func(t *testing.T, kind byte, body []byte) {
		k := events.Kind(kind)
		verr := protocol.ValidateEventBody(k, body)
		var q []byte
		var perr error
		switch k {
		case protocol.KindHit:
			var v protocol.Hit
			if v, perr = protocol.ParseHit(body); perr == nil {
				q = protocol.AppendHit(nil, v)
			}
		case protocol.KindKill:
			var v protocol.Kill
			if v, perr = protocol.ParseKill(body); perr == nil {
				q = protocol.AppendKill(nil, v)
			}
		case protocol.KindJoin:
			var v protocol.Join
			if v, perr = protocol.ParseJoin(body); perr == nil {
				q = protocol.AppendJoin(nil, v)
			}
		case protocol.KindLeave:
			var v protocol.Leave
			if v, perr = protocol.ParseLeave(body); perr == nil {
				q = protocol.AppendLeave(nil, v)
			}
		case protocol.KindChat:
			var v protocol.Chat
			if v, perr = protocol.ParseChat(body); perr == nil {
				q = protocol.AppendChat(nil, v)
			}
		case protocol.KindRoundOver:
			var v protocol.RoundOver
			if v, perr = protocol.ParseRoundOver(body); perr == nil {
				q = protocol.AppendRoundOver(nil, v)
			}
		case protocol.KindWatch:
			var v protocol.Watch
			if v, perr = protocol.ParseWatch(body); perr == nil {
				q = protocol.AppendWatch(nil, v)
			}
		default:
			if verr != nil {
				t.Fatalf("kind %d checked: %v", k, verr)
			}
			return
		}
		if (verr == nil) != (perr == nil) {
			t.Fatalf("kind %v: ValidateEventBody %v, Parse %v", k, verr, perr)
		}
		if perr == nil && !bytes.Equal(q, body) {
			t.Fatalf("kind %v re-encoded %x, want %x", k, q, body)
		}
	})
}

// A kill's judgement goes on the wire as the server's hit test had it:
// the position quantized as a snapshot's (1/8 px), the moment as is, the
// bits as the flags say; and reads back as the same arena kill.
func TestKillCarriesItsJudgement(t *testing.T) {
	k := arena.Kill{Killer: 3, Victim: 4, Weapon: arena.WeaponGun,
		Judged: arena.Judged{Behind: 2730, X: 1234.56, Y: 3000.01, Rewound: true, Clamped: true, By: 12}}
	body := protocol.KillOf(k)
	want := protocol.Kill{Killer: 3, Victim: 4, Judged: protocol.JudgedRewound | protocol.JudgedClamped, Behind: 2730, X: 9876, Y: 24000, By: 13}
	if body != want {
		t.Fatalf("KillOf = %+v, want %+v", body, want)
	}
	got, err := protocol.ParseKill(protocol.AppendKill(nil, body))
	if err != nil || got != want {
		t.Fatalf("read back %+v %v", got, err)
	}
	a := got.Arena()
	if a.Judged.X != 1234.5 || a.Judged.Y != 3000 || a.Judged.Behind != 2730 || !a.Judged.Rewound || a.Judged.Bounded || !a.Judged.Clamped || a.Judged.By != 12 || a.Killer != 3 {
		t.Fatalf("Arena() = %+v", a)
	}
	// A moment further back than a body holds is cut to the most it
	// holds; a shooter who left (slot -1) is by 0.
	k.Judged.Behind, k.Judged.By = 1<<20, -1
	if b := protocol.KillOf(k); b.Behind != protocol.MaxJudgedBehind || b.By != 0 {
		t.Fatalf("behind %d by %d, want %d and 0", b.Behind, b.By, protocol.MaxJudgedBehind)
	}
}
