package brain

import (
	"math"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

const selfSlot = 300

type ent struct {
	slot        uint16
	kind, state uint32
	x, y        float64
}

// scene builds a decoded snapshot of the arena from entities in slot order.
func scene(t testing.TB, ents ...ent) *snapshot.Snapshot {
	t.Helper()
	s := snapshot.New(protocol.Schema())
	for _, e := range ents {
		health := uint32(arena.PlayerHealth)
		if e.state&protocol.StateDead != 0 {
			health = 0
		}
		if err := s.Append(snapshot.EntityID{Index: e.slot, Generation: 1},
			protocol.PosQuant.Quantize(e.x), protocol.PosQuant.Quantize(e.y), 0, e.kind, e.state, health); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func me(x, y float64) ent { return ent{slot: selfSlot, kind: protocol.KindPlayer, x: x, y: y} }

// settle runs the brain until its aim stops turning, and returns the last
// input. The view is frozen, so the bot never sees itself move: the stuck
// detector is kept out of it (TestBrainDetoursWhenStuck tests it).
func settle(b *Brain, view *snapshot.Snapshot) arena.Input {
	var in arena.Input
	for range 20 {
		b.watch.pushed = false
		in = b.Next(selfSlot, view)
	}
	return in
}

func TestBrainAimsAtTheNearest(t *testing.T) {
	cases := []struct {
		name     string
		ents     []ent
		wantAim  float64
		wantFire bool
		// sign of the move along the line to the target: +1 towards, -1 away, 0 sideways
		wantMove int
	}{
		{
			name: "creature nearer than a player",
			ents: []ent{
				{slot: 5, kind: protocol.KindCreature, x: 1300, y: 1000},
				me(1000, 1000),
				{slot: 301, kind: protocol.KindPlayer, x: 1000, y: 1600},
			},
			wantAim: 0, wantFire: true, wantMove: +1,
		},
		{
			name: "player nearer than a creature",
			ents: []ent{
				{slot: 5, kind: protocol.KindCreature, x: 1450, y: 1000},
				me(1000, 1000),
				{slot: 301, kind: protocol.KindPlayer, x: 1000, y: 1350},
			},
			wantAim: math.Pi / 2, wantFire: true, wantMove: +1,
		},
		{
			name: "dead players and projectiles are no targets",
			ents: []ent{
				{slot: 6, kind: protocol.KindCreature, x: 700, y: 1000},
				me(1000, 1000),
				{slot: 301, kind: protocol.KindPlayer, state: protocol.StateDead, x: 1050, y: 1000},
				{slot: 400, kind: protocol.KindProjectile, x: 1010, y: 1010},
			},
			wantAim: math.Pi, wantFire: true, wantMove: +1,
		},
		{
			name: "a shielded player is no target",
			ents: []ent{
				{slot: 6, kind: protocol.KindCreature, x: 1000, y: 700},
				me(1000, 1000),
				{slot: 301, kind: protocol.KindPlayer, state: protocol.StateShielded, x: 1100, y: 1000},
			},
			wantAim: -math.Pi / 2, wantFire: true, wantMove: +1,
		},
		{
			name:    "out of range: aims and closes in, holds fire",
			ents:    []ent{me(1000, 1000), {slot: 301, kind: protocol.KindPlayer, x: 1000, y: 1000 - 650}},
			wantAim: -math.Pi / 2, wantFire: false, wantMove: +1,
		},
		{
			name:    "too close: backs off, firing",
			ents:    []ent{me(1000, 1000), {slot: 301, kind: protocol.KindPlayer, x: 1100, y: 1000}},
			wantAim: 0, wantFire: true, wantMove: -1,
		},
		{
			name:    "at the right distance: circles, firing",
			ents:    []ent{me(1000, 1000), {slot: 301, kind: protocol.KindPlayer, x: 1000 + 200*math.Cos(2), y: 1000 + 200*math.Sin(2)}},
			wantAim: 2, wantFire: true, wantMove: 0,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := New(1)
			in := settle(b, scene(t, c.ents...))
			if d := math.Abs(angleDiff(in.Aim, c.wantAim)); d > 0.01 {
				t.Fatalf("aim %v, want %v", in.Aim, c.wantAim)
			}
			if fire := in.Buttons&arena.ButtonFire != 0; fire != c.wantFire {
				t.Fatalf("fire %v, want %v", fire, c.wantFire)
			}
			mx, my := arena.MoveIntent(in.MoveX, in.MoveY)
			along := mx*math.Cos(c.wantAim) + my*math.Sin(c.wantAim)
			switch {
			case c.wantMove > 0 && along < 0.99,
				c.wantMove < 0 && along > -0.99,
				c.wantMove == 0 && (math.Abs(along) > 0.01 || math.Hypot(mx, my) < 0.99):
				t.Fatalf("move (%d, %d): %v along the target's direction, want sign %d", in.MoveX, in.MoveY, along, c.wantMove)
			}
		})
	}
}

func TestBrainFiresOnlyWhenAligned(t *testing.T) {
	b := New(2)
	b.aim = math.Pi // facing away from the target on the right
	view := scene(t, me(1000, 1000), ent{slot: 301, kind: protocol.KindPlayer, x: 1300, y: 1000})
	firstFire := 0
	prev := b.aim
	for n := 1; n <= 20; n++ {
		in := b.Next(selfSlot, view)
		if d := math.Abs(angleDiff(prev, in.Aim)); d > MaxTurn+1e-9 {
			t.Fatalf("turned %v in a tick, at most %v", d, MaxTurn)
		}
		prev = in.Aim
		fire := in.Buttons&arena.ButtonFire != 0
		if off := math.Abs(angleDiff(in.Aim, 0)); fire && off > AimTolerance {
			t.Fatalf("tick %d: fired %v rad off target", n, off)
		}
		if fire && firstFire == 0 {
			firstFire = n
		}
	}
	// π to within AimTolerance at MaxTurn a tick: 11 ticks.
	if want := int(math.Ceil((math.Pi - AimTolerance) / MaxTurn)); firstFire != want {
		t.Fatalf("first shot on tick %d, want %d", firstFire, want)
	}
}

func TestBrainIgnoresItselfAndWanders(t *testing.T) {
	// Alone: it wanders and never fires, whatever it sees of itself.
	alone := scene(t, me(1000, 1000))
	b := New(3)
	moved := false
	for range 300 {
		in := b.Next(selfSlot, alone)
		if in.Buttons != 0 {
			t.Fatal("fired at nothing (or at itself)")
		}
		if in.MoveX != 0 || in.MoveY != 0 {
			moved = true
		}
		if b.mode != modeRoam && b.mode != modeDetour { // the frozen view makes it detour
			t.Fatalf("a lone bot %vs (%s)", b.mode, b.why)
		}
	}
	if !moved {
		t.Fatal("a lone bot never moved")
	}
	// Its own slot, even when it is the only other thing close by, is no
	// target: here the nearest other entity is the creature.
	view := scene(t, ent{slot: 7, kind: protocol.KindCreature, x: 1000, y: 1400}, me(1000, 1000))
	in := settle(New(3), view)
	if math.Abs(angleDiff(in.Aim, math.Pi/2)) > 0.01 || in.Buttons == 0 {
		t.Fatalf("aim %v fire %v, want the creature below", in.Aim, in.Buttons)
	}
	// Not in view, or no view at all: wanders, no panic.
	for _, v := range []*snapshot.Snapshot{nil, scene(t, ent{slot: 7, kind: protocol.KindCreature, x: 1, y: 1})} {
		if in := New(4).Next(selfSlot, v); in.Buttons != 0 {
			t.Fatal("fired without knowing where it is")
		}
	}
	// Dead: waits.
	dead := scene(t, ent{slot: 7, kind: protocol.KindCreature, x: 1100, y: 1000}, ent{slot: selfSlot, kind: protocol.KindPlayer, state: protocol.StateDead, x: 1000, y: 1000})
	b = New(5)
	if in := b.Next(selfSlot, dead); in.Buttons != 0 || in.MoveX != 0 || in.MoveY != 0 || b.mode != modeWait {
		t.Fatalf("a dead bot acts: %+v, mode %v", in, b.mode)
	}
}

func TestBrainDetoursWhenStuck(t *testing.T) {
	b := New(6)
	view := scene(t, me(1000, 1000), ent{slot: 301, kind: protocol.KindPlayer, x: 1000, y: 1450})
	var ins []arena.Input
	for n := range 8 { // the bot pushes down but the view never shows it moving
		ins = append(ins, b.Next(selfSlot, view))
		// It fights for stuckTicks+1 ticks (the first did not push), then
		// detours.
		want := modeFight
		if n >= stuckTicks {
			want = modeDetour
		}
		if b.mode != want {
			t.Fatalf("tick %d: %v (%s), want %v", n+1, b.mode, b.why, want)
		}
	}
	if b.detour.left != detourTicks-3 {
		t.Fatalf("%d detour ticks left after 3, want %d", b.detour.left, detourTicks-3)
	}
	if ins[0].MoveY != 127 || ins[0].MoveX != 0 {
		t.Fatalf("first move %+v, want straight down", ins[0])
	}
	last := ins[len(ins)-1]
	if last.MoveX == 0 && last.MoveY == 127 {
		t.Fatal("still pushing into the wall after 8 ticks")
	}
	if last.Buttons&arena.ButtonFire == 0 {
		t.Fatal("stopped firing during the detour")
	}
	// Killed in the middle of it, the bot respawns without it.
	b.Next(selfSlot, scene(t, ent{slot: selfSlot, kind: protocol.KindPlayer, state: protocol.StateDead, x: 1000, y: 1000}))
	if in := b.Next(selfSlot, view); b.mode != modeFight || in.MoveY != 127 {
		t.Fatalf("respawned: %v (%s), move (%d, %d), want to fight, straight down", b.mode, b.why, in.MoveX, in.MoveY)
	}
}

// fakeView is a client's view for Play.
type fakeView struct {
	slot  uint16
	ok    bool
	state *snapshot.Snapshot
}

func (v fakeView) Self() (uint16, bool)                 { return v.slot, v.ok }
func (v fakeView) Newest() (uint32, *snapshot.Snapshot) { return 1, v.state }

func TestPlayFallsBackToTheWanderer(t *testing.T) {
	view := scene(t, me(1000, 1000), ent{slot: 301, kind: protocol.KindPlayer, x: 1300, y: 1000})
	b, w := New(9), NewWanderer(9)
	for range 50 { // no slot yet: exactly the Wanderer, fire and all
		if got, want := b.Play(fakeView{state: view}), w.Next(); got != want {
			t.Fatalf("without a slot: %+v, want the wanderer's %+v", got, want)
		}
	}
	b2, w2 := New(9), NewWanderer(9)
	if got, want := b2.Play(fakeView{slot: selfSlot, ok: true}), w2.Next(); got != want {
		t.Fatal("without a snapshot it should wander")
	}
	var in arena.Input
	for range 20 {
		in = b.Play(fakeView{slot: selfSlot, ok: true, state: view})
	}
	if in.Buttons&arena.ButtonFire == 0 || math.Abs(angleDiff(in.Aim, 0)) > 0.01 {
		t.Fatalf("with a slot and a view it should fight: %+v", in)
	}
	b3 := New(9)
	b3.SetSelf(selfSlot)
	for range 20 {
		in = b3.Play(fakeView{state: view})
	}
	if in.Buttons&arena.ButtonFire == 0 {
		t.Fatal("SetSelf stands in for a view that does not know the slot")
	}
}

// TestBrainDashes: a bot dashes at a target in sight more than a dash beyond
// the distance it keeps and away from one too near, at most once every
// dashEvery ticks and never two inputs in a row (a held button would not
// dash again); circling at its distance it does not dash.
func TestBrainDashes(t *testing.T) {
	cases := []struct {
		name   string
		ty     float64 // the target's y; the bot is at (1000, 1000)
		dashes int     // in 3*dashEvery ticks
		away   bool    // the dashes go away from the target
	}{
		{"chasing from afar", 1000 + KeepDistance + KeepBand + dashReach + 50, 3, false},
		{"fleeing from near", 1000 + KeepDistance*fleeShare - 20, 3, true},
		{"circling", 1000 + KeepDistance, 0, false},
		{"closing in from less than a dash away", 1000 + KeepDistance + KeepBand + dashReach - 20, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			view := scene(t, me(1000, 1000), ent{slot: 301, kind: protocol.KindPlayer, x: 1000, y: c.ty})
			b := New(8)
			dashes, last := 0, -dashEvery
			prevDash := false
			for tick := range 3 * dashEvery {
				b.watch.pushed = false // the view is frozen: keep the stuck detector out
				in := b.Next(selfSlot, view)
				dash := in.Buttons&arena.ButtonDash != 0
				if dash {
					if prevDash || tick-last < dashEvery {
						t.Fatalf("tick %d: a dash %d ticks after the last", tick, tick-last)
					}
					if c.away != (in.MoveY < 0) || in.MoveY == 0 {
						t.Fatalf("tick %d: dashed with stick (%d, %d), away %v", tick, in.MoveX, in.MoveY, c.away)
					}
					dashes, last = dashes+1, tick
				}
				prevDash = dash
			}
			if dashes != c.dashes {
				t.Fatalf("%d dashes, want %d", dashes, c.dashes)
			}
		})
	}
}
