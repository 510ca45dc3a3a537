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
