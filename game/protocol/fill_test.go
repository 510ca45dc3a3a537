package protocol

import (
	"math"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// busyWorld returns a full match's world: the default creatures and 64
// players, who walk in circles and, from the 20th step on, fire every tick.
func busyWorld(t testing.TB) (w *arena.World, step func()) {
	t.Helper()
	w, err := arena.NewWorld(arena.Config{Seed: 3, RoundTicks: 400})
	if err != nil {
		t.Fatal(err)
	}
	for id := arena.PlayerID(1); id <= 64; id++ {
		w.AddPlayer(id)
		w.SetName(id, "bot")
	}
	seq := uint32(0)
	return w, func() {
		seq++
		var buttons uint8
		if seq >= 20 {
			buttons = arena.ButtonFire
		}
		for id := arena.PlayerID(1); id <= 64; id++ {
			a := float64(seq)*0.05 + float64(id)
			w.ApplyInput(id, seq, arena.Input{Buttons: buttons, MoveX: int8(100 * math.Cos(a)), MoveY: int8(100 * math.Sin(a)), Aim: a})
		}
		w.Step()
	}
}

// The limits the arena sets fit the wire: every slot has an index, every
// player id an index in a record id.
func TestArenaFitsTheWire(t *testing.T) {
	s := Schema()
	if arena.MaxSlots != MaxEntities || s.MaxEntities != MaxEntities || 1<<s.IndexBits != arena.MaxSlots {
		t.Fatalf("slots %d, entities %d, index bits %d", arena.MaxSlots, MaxEntities, s.IndexBits)
	}
	if arena.MaxPlayerID > RecordIndexMask || arena.MaxPickups-1 > RecordIndexMask {
		t.Fatalf("player ids up to %d, record indexes up to %d", arena.MaxPlayerID, RecordIndexMask)
	}
	if arena.WorldSize != WorldSize || PosQuant.Bits() != 16 || arena.PlayerHealth > maxHealth || arena.CreatureHealth > maxHealth {
		t.Fatalf("world %d px in %d bits; health %d and %d in %d bits", arena.WorldSize, PosQuant.Bits(), arena.PlayerHealth, arena.CreatureHealth, healthBits)
	}
}

// TestFillMatchesEntities: over a busy match every entity fits its fields
// (the validating Append accepts it) and reads back as the arena has it,
// to the quantizers' precision.
func TestFillMatchesEntities(t *testing.T) {
	w, step := busyWorld(t)
	snap, check := snapshot.New(Schema()), snapshot.New(Schema())
	kinds := map[uint32]int{}
	states := uint32(0)
	drift, drifts, shots := 0.0, 0.0, 0 // of a projectile's wire position from its own, px
	for range 300 {
		step()
		ents := w.AppendEntities(nil)
		Fill(snap, ents)
		if snap.Len() != len(ents) {
			t.Fatalf("tick %d: %d rows for %d entities", w.Tick(), snap.Len(), len(ents))
		}
		check.Reset()
		for i, e := range ents {
			id, r := snap.ID(i), snap.Row(i)
			if err := check.Append(id, r...); err != nil {
				t.Fatalf("tick %d: entity %+v: %v", w.Tick(), e, err)
			}
			if id.Index != e.Slot || id.Generation != uint16(e.Generation) || r[FieldKind] != kindValue(e.Kind) {
				t.Fatalf("tick %d: row %v %v for %+v", w.Tick(), id, r, e)
			}
			// A projectile is on its whole-unit path: per tick flown, within
			// half a unit of the step's rounding and the drift of its
			// quantized heading (half a heading step) of where it is.
			near := PosPrecision / 2
			if e.Kind == arena.KindProjectile {
				perTick := PosPrecision/2 + arena.ProjectileSpeed*arena.Dt*math.Pi/float64(int(1)<<HeadingQuant.Bits())
				near += float64(e.Flown) * perTick
				d := math.Hypot(PosQuant.Dequantize(r[FieldX])-e.X, PosQuant.Dequantize(r[FieldY])-e.Y)
				drift, drifts, shots = max(drift, d), drifts+d, shots+1
			}
			if math.Abs(PosQuant.Dequantize(r[FieldX])-e.X) > near+1e-9 || math.Abs(PosQuant.Dequantize(r[FieldY])-e.Y) > near+1e-9 {
				t.Fatalf("tick %d: %+v at (%v, %v)", w.Tick(), e, PosQuant.Dequantize(r[FieldX]), PosQuant.Dequantize(r[FieldY]))
			}
			if d := math.Abs(math.Remainder(HeadingQuant.Dequantize(r[FieldHeading])-e.Heading, 2*math.Pi)); d > math.Pi/1024+1e-9 {
				t.Fatalf("tick %d: %+v heading off by %v", w.Tick(), e, d)
			}
			want := uint32(0)
			for bit, on := range []bool{e.Walking, e.Dead, e.Hurt, e.Shielded} {
				if on {
					want |= 1 << bit
				}
			}
			if r[FieldState] != want || r[FieldHealth] != uint32(e.Health) {
				t.Fatalf("tick %d: %+v as state %#b health %d", w.Tick(), e, r[FieldState], r[FieldHealth])
			}
			kinds[r[FieldKind]]++
			states |= r[FieldState]
		}
	}
	if kinds[KindPlayer] == 0 || kinds[KindCreature] == 0 || kinds[KindProjectile] == 0 || states != StateWalking|StateDead|StateHurt|StateShielded {
		t.Fatalf("the match did not show every kind and state: %v, states %#b", kinds, states)
	}
	t.Logf("a projectile's wire position drifted at most %.2f px from its own, %.2f px on average", drift, drifts/float64(shots))
}

// BenchmarkFill: quantizing a full match (300 creatures, 64 players
// firing) into a snapshot.
func BenchmarkFill(b *testing.B) {
	w, step := busyWorld(b)
	for range 300 {
		step()
		w.TakeEvents(func(arena.Event) {})
	}
	snap := snapshot.New(Schema())
	ents := w.AppendEntities(nil)
	b.ReportAllocs()
	for b.Loop() {
		ents = w.AppendEntities(ents[:0])
		Fill(snap, ents)
	}
	b.ReportMetric(float64(snap.Len()), "entities")
}
