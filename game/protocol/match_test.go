package protocol

import (
	"math"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// busyMatch returns a full match: the default creatures and 64 players,
// who walk in circles and, from the 20th step on, fire every tick.
func busyMatch(t testing.TB) (m *Match, step func()) {
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
	return NewMatch(w), func() {
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
	m, step := busyMatch(t)
	snap, check := snapshot.New(Schema()), snapshot.New(Schema())
	kinds := map[uint32]int{}
	states := uint32(0)
	drift, drifts, shots := 0.0, 0.0, 0 // of a projectile's wire position from its own, px
	for range 300 {
		step()
		m.Fill(snap)
		ents := m.AppendEntities(nil)
		if snap.Len() != len(ents) {
			t.Fatalf("tick %d: %d rows for %d entities", m.Tick(), snap.Len(), len(ents))
		}
		check.Reset()
		for i, e := range ents {
			id, r := snap.ID(i), snap.Row(i)
			if err := check.Append(id, r...); err != nil {
				t.Fatalf("tick %d: entity %+v: %v", m.Tick(), e, err)
			}
			if id.Index != e.Slot || id.Generation != uint16(e.Generation) || r[FieldKind] != kindValue(e.Kind) {
				t.Fatalf("tick %d: row %v %v for %+v", m.Tick(), id, r, e)
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
				t.Fatalf("tick %d: %+v at (%v, %v)", m.Tick(), e, PosQuant.Dequantize(r[FieldX]), PosQuant.Dequantize(r[FieldY]))
			}
			if d := math.Abs(math.Remainder(HeadingQuant.Dequantize(r[FieldHeading])-e.Heading, 2*math.Pi)); d > math.Pi/1024+1e-9 {
				t.Fatalf("tick %d: %+v heading off by %v", m.Tick(), e, d)
			}
			want := uint32(0)
			for bit, on := range []bool{e.Walking, e.Dead, e.Hurt, e.Shielded} {
				if on {
					want |= 1 << bit
				}
			}
			if r[FieldState] != want || r[FieldHealth] != uint32(e.Health) {
				t.Fatalf("tick %d: %+v as state %#b health %d", m.Tick(), e, r[FieldState], r[FieldHealth])
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

func TestObserve(t *testing.T) {
	w, err := arena.NewWorld(arena.Config{Seed: 3, Creatures: 10, MaxPlayers: 4})
	if err != nil {
		t.Fatal(err)
	}
	w.AddPlayer(7)
	p, _ := w.Player(7)
	o := Observe(w, 7)
	if !o.HasSelf || o.Self != p.Slot || o.X != PosQuant.Quantize(p.X) || o.Y != PosQuant.Quantize(p.Y) || o.Aim != p.Aim {
		t.Fatalf("observer %+v of player %+v", o, p)
	}
	mid := PosQuant.Quantize(WorldSize / 2)
	if o := Observe(w, 8); o != (Observer{X: mid, Y: mid}) {
		t.Fatalf("a player not in the match observes %+v", o)
	}
}

// Every record the match sends parses back into the arena's value, under
// the id of its kind and index.
func TestMatchRecords(t *testing.T) {
	m, step := busyMatch(t)
	want := map[uint32]arena.Record{}
	var changed, deleted, loadouts int
	seen := func(r arena.Record) { want[RecordID(r)] = r }
	m.World.AllRecords(seen)
	got := 0
	m.AllRecords(func(id uint32, gen uint16, payload []byte, del bool) {
		got++
		checkRecord(t, want[id], id, gen, payload, del)
	})
	if got != len(want) || got < 1+2*64+arena.DefaultPickups+arena.DefaultSpreadGuns+arena.DefaultPowerUps {
		t.Fatalf("%d records sent, %d in the arena", got, len(want))
	}
	for range 400 {
		step()
		m.ChangedRecords(func(id uint32, gen uint16, payload []byte, del bool) {
			changed++
			if del {
				deleted++
			}
			kind, index := RecordKind(id)
			var r arena.Record
			switch kind {
			case RecordClock:
				r = arena.Record{Kind: arena.RecordClock}
				r.Clock, _ = ParseClock(payload)
			case RecordScore:
				r = arena.Record{Kind: arena.RecordScore, Index: index}
				if !del {
					p, _ := m.Player(arena.PlayerID(index))
					r.Score = arena.Score{Name: p.Name, Kills: p.Kills, Deaths: p.Deaths, Score: p.Score, Shots: p.Shots, Hits: p.Hits}
				}
			case RecordLoadout:
				r = arena.Record{Kind: arena.RecordLoadout, Index: index}
				if !del {
					p, _ := m.Player(arena.PlayerID(index))
					r.Loadout = p.Loadout
					loadouts++
				}
			case RecordPickup:
				r = arena.Record{Kind: arena.RecordPickup, Index: index, Generation: gen}
				r.Pickup, _ = ParsePickup(payload)
			default:
				t.Fatalf("record id %#x of no kind", id)
			}
			r.Deleted = del
			if del {
				r.Clock, r.Score, r.Pickup, r.Loadout = arena.Clock{}, arena.Score{}, arena.Pickup{}, arena.Loadout{}
			}
			checkRecord(t, r, id, gen, payload, del)
		})
	}
	if changed < 100 || deleted == 0 || loadouts == 0 {
		t.Fatalf("%d records changed, %d deleted, %d loadouts: the match did not exercise them", changed, deleted, loadouts)
	}
}

func checkRecord(t *testing.T, r arena.Record, id uint32, gen uint16, payload []byte, del bool) {
	t.Helper()
	if RecordID(r) != id || r.Generation != gen || r.Deleted != del {
		t.Fatalf("record %#x gen %d deleted %v, arena has %+v", id, gen, del, r)
	}
	if del {
		if len(payload) != 0 {
			t.Fatalf("deleted record %#x with payload %x", id, payload)
		}
		return
	}
	var err error
	ok := true
	switch r.Kind {
	case arena.RecordClock:
		var c arena.Clock
		c, err = ParseClock(payload)
		ok = c == r.Clock
	case arena.RecordScore:
		var s arena.Score
		s, err = ParseScore(payload)
		ok = s == r.Score
	case arena.RecordPickup:
		var p arena.Pickup
		p, err = ParsePickup(payload)
		ok = p == r.Pickup
	case arena.RecordLoadout:
		var l arena.Loadout
		l, err = ParseLoadout(payload)
		ok = l == r.Loadout
	}
	if err != nil || !ok {
		t.Fatalf("record %#x payload %x does not read back as %+v: %v", id, payload, r, err)
	}
}

// Every event the match sends is valid and carries the arena's values.
func TestMatchEvents(t *testing.T) {
	m, step := busyMatch(t)
	kinds := map[events.Kind]int{}
	for range 401 {
		step()
		// Each body must read back into values that encode as it.
		m.TakeEvents(func(k events.Kind, body []byte) {
			if err := ValidateEventBody(k, body); err != nil {
				t.Fatalf("%v body %x: %v", k, body, err)
			}
			kinds[k]++
			var e arena.Event
			switch k {
			case KindHit:
				h, _ := ParseHit(body)
				e = arena.Event{Kind: arena.EventHit, Hit: arena.Hit{Attacker: arena.PlayerID(h.Attacker), Target: arena.PlayerID(h.Target), Damage: int(h.Damage)}}
			case KindKill:
				k, _ := ParseKill(body)
				e = arena.Event{Kind: arena.EventKill, Kill: arena.Kill{Killer: arena.PlayerID(k.Killer), Victim: arena.PlayerID(k.Victim), Weapon: arena.Weapon(k.Weapon)}}
			case KindRoundOver:
				r, _ := ParseRoundOver(body)
				e = arena.Event{Kind: arena.EventRoundOver, RoundOver: arena.RoundOver{Round: r.Round, Winner: arena.PlayerID(r.Winner)}}
			default:
				t.Fatalf("event kind %v", k)
			}
			again, kind, ok := AppendEvent(nil, e)
			if !ok || kind != k || string(again) != string(body) {
				t.Fatalf("%v body %x reads as %+v, which encodes as %v %x", k, body, e, kind, again)
			}
		})
	}
	if kinds[KindHit] == 0 || kinds[KindKill] == 0 || kinds[KindRoundOver] != 1 {
		t.Fatalf("events sent: %v", kinds)
	}
	if _, _, ok := AppendEvent(nil, arena.Event{}); ok {
		t.Fatal("an event of no kind encodes")
	}
}

// The match's per-tick work allocates nothing once its buffers have grown.
func TestMatchTickDoesNotAllocate(t *testing.T) {
	m, step := busyMatch(t)
	snap := snapshot.New(Schema())
	evFn := func(events.Kind, []byte) {}
	recFn := func(uint32, uint16, []byte, bool) {}
	tick := func() {
		step()
		m.Fill(snap)
		for id := arena.PlayerID(1); id <= 64; id++ {
			m.Observe(id)
		}
		m.TakeEvents(evFn)
		m.ChangedRecords(recFn)
	}
	for range 600 { // warm up: buffers reach the match's rate
		tick()
	}
	if n := testing.AllocsPerRun(300, tick); n != 0 {
		t.Fatalf("a tick allocates %v times", n)
	}
	if st := m.Stats(); st.ShotsFired < 1000 || st.Hits == 0 {
		t.Fatalf("the run did not shoot: %+v", st)
	}
}

// BenchmarkFill: quantizing a full match (300 creatures, 64 players
// firing) into a snapshot.
func BenchmarkFill(b *testing.B) {
	m, step := busyMatch(b)
	for range 300 {
		step()
		m.TakeEvents(func(events.Kind, []byte) {})
	}
	snap := snapshot.New(Schema())
	b.ReportAllocs()
	for b.Loop() {
		m.Fill(snap)
	}
	b.ReportMetric(float64(snap.Len()), "entities")
}
