package server_test

import (
	"math"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// busyMatch returns a full match: the default creatures and 64 players,
// who walk in circles and, from the 20th step on, fire every tick.
func busyMatch(t testing.TB) (m *server.Match, step func()) {
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
	return server.NewMatch(w), func() {
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

func TestObserve(t *testing.T) {
	w, err := arena.NewWorld(arena.Config{Seed: 3, Creatures: 10, MaxPlayers: 4})
	if err != nil {
		t.Fatal(err)
	}
	w.AddPlayer(7)
	p, _ := w.Player(7)
	o := server.Observe(w, 7)
	if !o.HasSelf || o.Self != p.Slot || o.X != protocol.PosQuant.Quantize(p.X) || o.Y != protocol.PosQuant.Quantize(p.Y) || o.Aim != p.Aim {
		t.Fatalf("observer %+v of player %+v", o, p)
	}
	mid := protocol.PosQuant.Quantize(protocol.WorldSize / 2)
	if o := server.Observe(w, 8); o != (server.Observer{X: mid, Y: mid}) {
		t.Fatalf("a player not in the match observes %+v", o)
	}
}

// Every record the match sends parses back into the arena's value, under
// the id of its kind and index.
func TestMatchRecords(t *testing.T) {
	m, step := busyMatch(t)
	want := map[uint32]arena.Record{}
	var changed, deleted, loadouts int
	seen := func(r arena.Record) { want[protocol.RecordID(r)] = r }
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
			kind, index := protocol.RecordKind(id)
			var r arena.Record
			switch kind {
			case protocol.RecordClock:
				r = arena.Record{Kind: arena.RecordClock}
				r.Clock, _ = protocol.ParseClock(payload)
			case protocol.RecordScore:
				r = arena.Record{Kind: arena.RecordScore, Index: index}
				if !del {
					p, _ := m.Player(arena.PlayerID(index))
					r.Score = arena.Score{Name: p.Name, Kills: p.Kills, Deaths: p.Deaths, Score: p.Score, Shots: p.Shots, Hits: p.Hits}
				}
			case protocol.RecordLoadout:
				r = arena.Record{Kind: arena.RecordLoadout, Index: index}
				if !del {
					p, _ := m.Player(arena.PlayerID(index))
					r.Loadout = p.Loadout
					loadouts++
				}
			case protocol.RecordPickup:
				r = arena.Record{Kind: arena.RecordPickup, Index: index, Generation: gen}
				r.Pickup, _ = protocol.ParsePickup(payload)
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
	if protocol.RecordID(r) != id || r.Generation != gen || r.Deleted != del {
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
		c, err = protocol.ParseClock(payload)
		ok = c == r.Clock
	case arena.RecordScore:
		var s arena.Score
		s, err = protocol.ParseScore(payload)
		ok = s == r.Score
	case arena.RecordPickup:
		var p arena.Pickup
		p, err = protocol.ParsePickup(payload)
		ok = p == r.Pickup
	case arena.RecordLoadout:
		var l arena.Loadout
		l, err = protocol.ParseLoadout(payload)
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
			if err := protocol.ValidateEventBody(k, body); err != nil {
				t.Fatalf("%v body %x: %v", k, body, err)
			}
			kinds[k]++
			var e arena.Event
			switch k {
			case protocol.KindHit:
				h, _ := protocol.ParseHit(body)
				e = arena.Event{Kind: arena.EventHit, Hit: arena.Hit{Attacker: arena.PlayerID(h.Attacker), Target: arena.PlayerID(h.Target), Damage: int(h.Damage), Shot: h.Shot}}
			case protocol.KindKill:
				k, _ := protocol.ParseKill(body)
				e = arena.Event{Kind: arena.EventKill, Kill: k.Arena()}
			case protocol.KindRoundOver:
				r, _ := protocol.ParseRoundOver(body)
				e = arena.Event{Kind: arena.EventRoundOver, RoundOver: arena.RoundOver{Round: r.Round, Winner: arena.PlayerID(r.Winner)}}
			default:
				t.Fatalf("event kind %v", k)
			}
			again, kind, ok := protocol.AppendEvent(nil, e)
			if !ok || kind != k || string(again) != string(body) {
				t.Fatalf("%v body %x reads as %+v, which encodes as %v %x", k, body, e, kind, again)
			}
		})
	}
	if kinds[protocol.KindHit] == 0 || kinds[protocol.KindKill] == 0 || kinds[protocol.KindRoundOver] != 1 {
		t.Fatalf("events sent: %v", kinds)
	}
	if _, _, ok := protocol.AppendEvent(nil, arena.Event{}); ok {
		t.Fatal("an event of no kind encodes")
	}
}

// The match's per-tick work allocates nothing once its buffers have grown.
func TestMatchTickDoesNotAllocate(t *testing.T) {
	m, step := busyMatch(t)
	snap := snapshot.New(protocol.Schema())
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
