package protocol

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
)

func TestInputRoundTrip(t *testing.T) {
	in := arena.Input{Buttons: arena.ButtonFire, MoveX: -127, MoveY: 127, Aim: 1.5}
	b := AppendInput(nil, in)
	if len(b) != InputSize {
		t.Fatalf("%d bytes, want %d", len(b), InputSize)
	}
	got := ParseInput(b, 0)
	if got.Buttons != in.Buttons || got.MoveX != in.MoveX || got.MoveY != in.MoveY || math.Abs(got.Aim-in.Aim) > 1e-4 {
		t.Fatalf("%+v", got)
	}
	// A hostile input: unknown buttons dropped, -128 clamped.
	if g := ParseInput([]byte{0xff, 0x80, 0x80, 0, 0, 0, 0, 0, 0}, 0); g.Buttons != arena.ButtonFire|arena.ButtonDash || g.MoveX != -127 || g.MoveY != -127 {
		t.Fatalf("%+v", g)
	}
	// A non-finite aim still takes InputSize bytes, and reads as 0.
	for _, aim := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if b := AppendInput(nil, arena.Input{Aim: aim}); len(b) != InputSize || ParseInput(b, 0).Aim != 0 {
			t.Fatalf("aim %v encodes as %x", aim, b)
		}
	}
	// Any input survives a second round trip unchanged: the first one
	// already put it on the wire's grid.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		in := arena.Input{Buttons: uint8(rng.Uint32()), MoveX: int8(rng.Uint32()), MoveY: int8(rng.Uint32()), Aim: (rng.Float64() - 0.5) * 100}
		once := ParseInput(AppendInput(nil, in), 0)
		if twice := ParseInput(AppendInput(nil, once), 0); twice != once {
			t.Fatalf("%+v: %+v then %+v", in, once, twice)
		}
		if d := math.Abs(math.Remainder(once.Aim-in.Aim, 2*math.Pi)); d > math.Pi/65536+1e-12 {
			t.Fatalf("%+v: aim off by %v", in, d)
		}
	}
}

// The view's tick travels as its low 16 bits and is resolved against the
// newest tick the client acknowledged: never newer than that, and cut so
// that nothing newer is drawn.
func TestInputView(t *testing.T) {
	for _, tc := range []struct {
		name   string
		sent   arena.View
		newest uint32
		want   arena.View
	}{
		{"between two ticks", arena.View{From: 100, Gap: 1, Frac: 192}, 102, arena.View{From: 100, Gap: 1, Frac: 192}},
		{"one tick", arena.View{From: 99}, 102, arena.View{From: 99}},
		{"the acked tick", arena.View{From: 102}, 102, arena.View{From: 102}},
		{"a gap after a loss", arena.View{From: 90, Gap: 4, Frac: 10}, 102, arena.View{From: 90, Gap: 4, Frac: 10}},
		{"across 65536", arena.View{From: 65535, Gap: 2, Frac: 1}, 65537, arena.View{From: 65535, Gap: 2, Frac: 1}},
		{"far into a match", arena.View{From: 5<<16 + 7, Gap: 1, Frac: 3}, 5<<16 + 9, arena.View{From: 5<<16 + 7, Gap: 1, Frac: 3}},
		{"no view", arena.View{}, 102, arena.View{}},
		{"nothing acked", arena.View{From: 100, Gap: 1, Frac: 1}, 0, arena.View{}},
		{"a tick not received, early in a match: no view", arena.View{From: 103}, 102, arena.View{}},
		{"a tick not received: read as 65536 ticks older", arena.View{From: 70103}, 70102, arena.View{From: 70103 - 1<<16}},
		{"a gap past the ack is cut", arena.View{From: 101, Gap: 5, Frac: 200}, 102, arena.View{From: 101, Gap: 1, Frac: 200}},
		{"a gap cut to nothing drops the fraction", arena.View{From: 102, Gap: 3, Frac: 200}, 102, arena.View{From: 102}},
		{"before the first tick", arena.View{From: 200}, 100, arena.View{}},
		// A tick whose low bits are 0 (once every 36 minutes) is stated
		// from the tick before, the same moment.
		{"a tick of low bits 0", arena.View{From: 3 << 16}, 3<<16 + 2, arena.View{From: 3<<16 - 1, Gap: 1, Frac: 255}},
		{"between a tick of low bits 0 and the next", arena.View{From: 3 << 16, Gap: 1, Frac: 128}, 3<<16 + 2, arena.View{From: 3<<16 - 1, Gap: 2, Frac: 192}},
		{"a gap from a tick of low bits 0", arena.View{From: 3 << 16, Gap: 3, Frac: 10}, 3<<16 + 5, arena.View{From: 3<<16 - 1, Gap: 4, Frac: 72}},
		// (256 + 255)/2 rounds to 256, which the byte cannot hold: 255.
		{"nearly the next tick after a tick of low bits 0", arena.View{From: 3 << 16, Gap: 1, Frac: 255}, 3<<16 + 2, arena.View{From: 3<<16 - 1, Gap: 2, Frac: 255}},
		// A gap of 255 cannot grow to 256: the nearer tick alone.
		{"a gap of 255 from a tick of low bits 0, nearer A", arena.View{From: 3 << 16, Gap: 255, Frac: 127}, 3<<16 + 300, arena.View{From: 3<<16 - 1, Gap: 1, Frac: 255}},
		{"a gap of 255 from a tick of low bits 0, nearer B", arena.View{From: 3 << 16, Gap: 255, Frac: 128}, 3<<16 + 300, arena.View{From: 3<<16 + 255}},
	} {
		got := ParseInput(AppendInput(nil, arena.Input{View: tc.sent}), tc.newest).View
		if got != tc.want {
			t.Errorf("%s: sent %+v, newest %d: read %+v, want %+v", tc.name, tc.sent, tc.newest, got, tc.want)
		}
	}
}

// FuzzParseInput: any InputSize bytes read as an input the world can take:
// known buttons only, a move in -127..127, an aim in [0, 2π), and a view
// that draws nothing newer than the newest acknowledged tick; encoding
// what was read and reading it again gives the same input.
func FuzzParseInput(f *testing.F) {
	f.Add([]byte{0x01, 0x7f, 0x00, 0x00, 0x40, 0x64, 0x00, 0x01, 0xc0}, uint32(102))
	f.Add([]byte{0xff, 0x80, 0x80, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, uint32(1))
	f.Add(make([]byte, InputSize), uint32(0))
	f.Fuzz(func(t *testing.T, p []byte, newest uint32) {
		if len(p) < InputSize {
			return
		}
		in := ParseInput(p, newest)
		if in.Buttons&^(arena.ButtonFire|arena.ButtonDash) != 0 || in.MoveX < -127 || in.MoveY < -127 ||
			!(in.Aim >= 0 && in.Aim < 2*math.Pi) {
			t.Fatalf("% x: %+v", p[:InputSize], in)
		}
		if v := in.View; v != (arena.View{}) {
			if v.From == 0 || v.From > newest || uint64(v.From)+uint64(v.Gap) > uint64(newest) || (v.Gap == 0 && v.Frac != 0) {
				t.Fatalf("% x, newest %d: view %+v", p[:InputSize], newest, v)
			}
		}
		if again := ParseInput(AppendInput(nil, in), newest); again != in {
			t.Fatalf("% x: %+v, then %+v", p[:InputSize], in, again)
		}
	})
}
