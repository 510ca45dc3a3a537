package arena_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
)

// The arena's PlayerID, Input and Observer mirror protocol's (which imports
// the arena): they must convert both ways and encode alike.
func TestTypesMirrorProtocol(t *testing.T) {
	in := protocol.Input{Buttons: protocol.ButtonFire, MoveX: -5, MoveY: 127, Aim: 1.25}
	if arena.Input(in) != (arena.Input{Buttons: arena.ButtonFire, MoveX: -5, MoveY: 127, Aim: 1.25}) {
		t.Fatal("Input does not convert field by field")
	}
	o := arena.Observer{X: 1, Y: 2, Aim: 3, Self: 4, HasSelf: true}
	if protocol.Observer(o) != (protocol.Observer{X: 1, Y: 2, Aim: 3, Self: 4, HasSelf: true}) {
		t.Fatal("Observer does not convert field by field")
	}
	if protocol.PlayerID(arena.PlayerID(7)) != 7 {
		t.Fatal("PlayerID")
	}
	if arena.InputSize != protocol.InputSize || arena.ButtonFire != protocol.ButtonFire || arena.ButtonDash != protocol.ButtonDash {
		t.Fatal("input constants differ")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		p := protocol.Input{Buttons: uint8(rng.Uint32()), MoveX: int8(rng.Uint32()), MoveY: int8(rng.Uint32()), Aim: (rng.Float64() - 0.5) * 100}
		a := arena.Input(p).Append(nil)
		b := p.Append(nil)
		if !bytes.Equal(a, b) {
			t.Fatalf("%+v encodes as %x here, %x in protocol", p, a, b)
		}
		if got, want := arena.ParseInput(a), protocol.ParseInput(b); got != arena.Input(want) {
			t.Fatalf("%x parses as %+v here, %+v in protocol", a, got, want)
		}
	}
	if got := arena.Input(protocol.Input{Aim: math.NaN()}).Append(nil); len(got) != arena.InputSize {
		t.Fatalf("NaN aim encodes as %x", got)
	}
}
