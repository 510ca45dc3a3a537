package brain

import (
	"math"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// middle is the middle of the map, always open.
const middle = arena.WorldSize / 2

// clientViews plays a match of 8 bots with the map for a while and returns
// what bot 0's client would decode on the next n ticks (the entities within
// protocol.ViewRadius of it), its slot and the map.
func clientViews(t testing.TB, n int) ([]*snapshot.Snapshot, uint16, *arena.Map) {
	const bots = 8
	w, err := newMatch(arena.Config{Seed: 21})
	if err != nil {
		t.Fatal(err)
	}
	brains := make([]*Brain, bots)
	for i := range bots {
		w.AddPlayer(arena.PlayerID(i + 1))
		brains[i] = New(uint64(i))
		brains[i].SetMap(w.Map())
	}
	full := snapshot.New(protocol.Schema())
	var views []*snapshot.Snapshot
	self := w.Observe(1).Self
	for tick := 1; len(views) < n; tick++ {
		w.Fill(full)
		if tick > 10*arena.TickRate { // into the fight
			me, _ := full.Find(self)
			x, y := pos(full, me)
			v := snapshot.New(protocol.Schema())
			for j := range full.Len() {
				if tx, ty := pos(full, j); math.Hypot(tx-x, ty-y) <= protocol.ViewRadius {
					if err := v.Append(full.ID(j), full.Row(j)...); err != nil {
						t.Fatal(err)
					}
				}
			}
			views = append(views, v)
		}
		for i := range bots {
			id := arena.PlayerID(i + 1)
			w.ApplyInput(id, uint32(tick), arena.Input(brains[i].Next(w.Observe(id).Self, full)))
		}
		w.Step()
	}
	return views, self, w.Map()
}

// TestBrainNextAllocatesNothing: once its map is set, a Brain's tick
// allocates nothing, whether it fights in the open, routes around a wall
// every tick or wanders.
// brainScene is a bot's situation for the allocation test and the
// benchmark: the map it has (or none), its slot and the views it gets by
// turns.
type brainScene struct {
	name  string
	m     *arena.Map
	self  uint16
	views []*snapshot.Snapshot
}

// brainScenes returns a match's views (with the map and without), a bot
// behind a wall from its target on two tiles by turns, and a bot alone,
// wandering.
func brainScenes(t testing.TB, views []*snapshot.Snapshot, self uint16, m *arena.Map) []brainScene {
	c := findBehindWall(t, 1, 0, 4, 6)
	hidden := []*snapshot.Snapshot{
		scene(t, ent{slot: 9, kind: protocol.KindCreature, x: c.tx, y: c.ty}, me(c.x, c.y)),
		scene(t, ent{slot: 9, kind: protocol.KindCreature, x: c.tx, y: c.ty}, me(c.x+arena.Tile, c.y)),
	}
	alone := []*snapshot.Snapshot{scene(t, me(middle, middle)), scene(t, me(middle+arena.Tile, middle))}
	return []brainScene{
		{"match/map", m, self, views},
		{"match/nomap", nil, self, views},
		{"behind_wall/map", arena.NewMap(c.seed), selfSlot, hidden},
		{"wander/map", m, selfSlot, alone},
	}
}

func TestBrainNextAllocatesNothing(t *testing.T) {
	views, self, m := clientViews(t, 90)
	cases := brainScenes(t, views, self, m)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := New(1)
			b.SetMap(tc.m)
			for _, v := range tc.views { // warm up
				b.Next(tc.self, v)
			}
			k := 0
			allocs := testing.AllocsPerRun(5*len(tc.views), func() {
				b.Next(tc.self, tc.views[k%len(tc.views)])
				k++
			})
			if allocs != 0 {
				t.Fatalf("%v allocations a tick", allocs)
			}
		})
	}
}

// BenchmarkBrainNext: one bot's tick on what its client decodes in a match
// (about a screen's worth of creatures, players and shots), with and
// without the map; and, with the map, the worst cases of route searching:
// a new search every tick, to a target behind a wall or a far wander goal.
func BenchmarkBrainNext(b *testing.B) {
	views, self, m := clientViews(b, 300)
	n := 0
	for _, v := range views {
		n += v.Len()
	}
	b.Logf("%d views of %.0f entities on average", len(views), float64(n)/float64(len(views)))
	for _, bc := range brainScenes(b, views, self, m) {
		b.Run(bc.name, func(b *testing.B) {
			br := New(1)
			br.SetMap(bc.m)
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				br.Next(bc.self, bc.views[k%len(bc.views)])
				k++
			}
			if br.nav != nil {
				b.ReportMetric(float64(br.nav.searches)/float64(k), "searches/op")
			}
		})
	}
}

// heldRecords is a client's records, held as payloads: what Read gets.
type heldRecords struct {
	me  arena.PlayerID
	ids []uint32
	ps  [][]byte
}

func (h *heldRecords) Player() (arena.PlayerID, bool) { return h.me, true }

func (h *heldRecords) Records(fn func(id uint32, gen uint16, payload []byte)) {
	for i, id := range h.ids {
		fn(id, 0, h.ps[i])
	}
}

// Read takes the pickups the bot wants and its own loadout, ignoring other
// players' loadouts and health packs, and allocates nothing; then the bot
// holding the spread gun fights at point blank, and fetches a power-up near
// it even in a fight.
func TestBrainReadsRecords(t *testing.T) {
	h := &heldRecords{me: 5}
	add := func(id uint32, p []byte) { h.ids, h.ps = append(h.ids, id), append(h.ps, p) }
	add(protocol.RecordClock, protocol.AppendClock(nil, arena.Clock{Round: 1, End: 9000, Next: 9150}))
	add(protocol.RecordPickup|0, protocol.AppendPickup(nil, arena.Pickup{X: 100, Y: 100, Kind: arena.PickupHealth}))
	add(protocol.RecordPickup|1, protocol.AppendPickup(nil, arena.Pickup{X: middle + 150, Y: middle, Kind: arena.PickupPower}))
	add(protocol.RecordPickup|2, protocol.AppendPickup(nil, arena.Pickup{X: 300, Y: 300, Kind: arena.PickupSpread}))
	add(protocol.RecordLoadout|4, protocol.AppendLoadout(nil, arena.Loadout{Weapon: arena.WeaponGun}))
	add(protocol.RecordLoadout|5, protocol.AppendLoadout(nil, arena.Loadout{Weapon: arena.WeaponSpread, Shots: 15}))
	b := New(1)
	b.Read(h)
	if allocs := testing.AllocsPerRun(100, func() { b.Read(h) }); allocs != 0 {
		t.Fatalf("Read allocates %v times", allocs)
	}
	if b.items.n != 2 || b.Loadout() != (arena.Loadout{Weapon: arena.WeaponSpread, Shots: 15}) {
		t.Fatalf("read %d items, loadout %+v", b.items.n, b.Loadout())
	}
	if b.fireRange() != SpreadRange || b.keepDistance() != SpreadKeep || b.wants(arena.PickupSpread) || !b.wants(arena.PickupPower) {
		t.Fatal("with 15 spread shots the bot should fight close and want only the power-up")
	}
	// A player 200 px to the north: the bot closes in (it keeps SpreadKeep)
	// but first fetches the power-up 150 px east.
	view := scene(t, me(middle, middle), ent{slot: 301, kind: protocol.KindPlayer, x: middle, y: middle - 200})
	in := b.Next(selfSlot, view)
	if in.MoveX <= 100 || in.MoveY < -30 || in.MoveY > 30 || b.mode != modeFetch {
		t.Fatalf("move (%d, %d), mode %v: want east to the power-up, fetching", in.MoveX, in.MoveY, b.mode)
	}
	// Without it, the bot closes in on the player, firing once aimed.
	h.ids, h.ps = h.ids[:len(h.ids)-4], h.ps[:len(h.ps)-4]
	add(protocol.RecordLoadout|5, protocol.AppendLoadout(nil, arena.Loadout{Weapon: arena.WeaponSpread, Shots: 15}))
	b.Read(h)
	fired := false
	for range 20 {
		b.watch.pushed = false // the view is frozen: keep the stuck detector out
		in = b.Next(selfSlot, view)
		fired = fired || in.Buttons&arena.ButtonFire != 0
	}
	if in.MoveY >= -100 || !fired || b.mode != modeFight {
		t.Fatalf("move (%d, %d), fired %v, mode %v: want north at the player, firing", in.MoveX, in.MoveY, fired, b.mode)
	}
}
