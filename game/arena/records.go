package arena

// Records are the state a client must hold exactly: the round clock, each
// player's name and score, each player's loadout (spread gun, power-up), and
// where the pickups lie. The world keeps
// track of which changed; the match server sends them as acknowledged
// records, apart from the entities.

// RecordKind says which state a Record carries.
type RecordKind uint8

// Record kinds.
const (
	// RecordClock is the round clock (Record.Clock); there is one.
	RecordClock RecordKind = iota + 1
	// RecordScore is a player's name and score (Record.Score); Index is
	// the player id. It is deleted when the player leaves.
	RecordScore
	// RecordPickup is a pickup (Record.Pickup); Index is its number
	// from 0. It is deleted when taken and comes back elsewhere with the
	// next Generation.
	RecordPickup
	// RecordLoadout is what a player carries (Record.Loadout); Index is
	// the player id. It is deleted when the player leaves.
	RecordLoadout
)

// Pickup kinds.
const (
	PickupHealth uint8 = iota // heals PickupHeal, taken only by a hurt player
	PickupSpread              // the spread gun for SpreadShots shots
	PickupPower               // double damage for PowerTicks
)

// Clock is the round clock: the current round, the ticks it started and
// ends on, and the tick the next round starts on. Ticks count Steps: the
// first round starts at tick 0; its play is the Steps that make ticks
// Start+1 to End; on the Step that makes End it ends, with EventRoundOver;
// the Steps that make ticks End+1 to Next are the intermission (nobody
// fires, takes damage or takes a pickup); the Step that makes Next starts
// the next round, whose clock then reads Start = Next. With no intermission
// Next is End.
type Clock struct {
	Round      uint32
	Start, End uint32
	Next       uint32
}

// Remaining returns the ticks left in the round at tick (0 once over).
func (c Clock) Remaining(tick uint32) uint32 {
	if tick >= c.End {
		return 0
	}
	return c.End - tick
}

// Intermission reports whether tick, a snapshot's, falls between this
// round's end and the next round's start: End <= tick < Next.
func (c Clock) Intermission(tick uint32) bool { return tick >= c.End && tick < c.Next }

// UntilNext returns the ticks from tick to the next round's start (0 once
// it is due).
func (c Clock) UntilNext(tick uint32) uint32 {
	if tick >= c.Next {
		return 0
	}
	return c.Next - tick
}

// Score is a player's name and score in the current round, and its
// accuracy: Shots counts the projectiles it fired (a spread shot's three
// pellets are three), Hits those that hit a player or a creature. Shots and
// Hits are as of the record's last revision: the world publishes them with
// every other change of the record and at the round's end, never for a shot
// alone, so they are exact during the intermission.
type Score struct {
	Name                 string // at most MaxNameBytes bytes of UTF-8
	Kills, Deaths, Score uint32
	Shots, Hits          uint32
}

// Pickup is where a pickup lies, in whole px, and what it is.
type Pickup struct {
	X, Y uint16
	Kind uint8 // PickupHealth, PickupSpread or PickupPower
}

// Loadout is what a player carries beside the gun: the spread gun with its
// shots left, and the tick its power-up ends.
type Loadout struct {
	// Weapon is WeaponGun or WeaponSpread, what the next shot fires.
	Weapon Weapon
	// Shots is the spread shots left: 1 to SpreadShots with the spread
	// gun, 0 with the gun.
	Shots uint32
	// PowerEnd is the first tick whose shot is no longer doubled: shots
	// fired on the Steps that make ticks before PowerEnd deal
	// PowerFactor times the damage. 0 if the player never had one; a
	// past tick once it ran out.
	PowerEnd uint32
}

// Powered reports whether a shot fired on the Step that makes tick is
// doubled; at a snapshot of tick, PowerEnd - tick ticks of it remain.
func (l Loadout) Powered(tick uint32) bool { return tick < l.PowerEnd }

// Record is one record's new state: Kind says which of its fields holds
// it. A deleted record holds nothing but its identity.
type Record struct {
	Kind       RecordKind
	Index      uint32 // RecordScore: the player id; RecordPickup: the pack's number
	Generation uint16 // RecordPickup: new each time the pack comes back
	Deleted    bool
	Clock      Clock
	Score      Score
	Pickup     Pickup
	Loadout    Loadout
}

// ChangedRecords calls fn for every record that changed since the previous
// call (the first call reports them all): the clock if a round began, then
// deletions of the score and loadout records of players who left, then the
// score records of players whose name or score changed (in slot order), then
// the loadout records that changed (in slot order), then the pickups taken
// (deleted) or back, in order.
func (w *World) ChangedRecords(fn func(Record)) {
	if w.clockDirty {
		w.clockDirty = false
		fn(w.clockRecord())
	}
	for _, id := range w.removed {
		fn(Record{Kind: RecordScore, Index: uint32(id), Deleted: true})
		fn(Record{Kind: RecordLoadout, Index: uint32(id), Deleted: true})
	}
	w.removed = w.removed[:0]
	for i := range w.players {
		if p := &w.players[i]; p.active && p.dirty {
			p.dirty = false
			p.pubShots, p.pubHits = p.shots, p.hits
			fn(scoreRecord(p))
		}
	}
	for i := range w.players {
		if p := &w.players[i]; p.active && p.loadDirty {
			p.loadDirty = false
			fn(loadoutRecord(p))
		}
	}
	for k := range w.pickups {
		if pk := &w.pickups[k]; pk.dirty {
			pk.dirty = false
			fn(w.pickupRecord(k))
		}
	}
}

// AllRecords calls fn for every live record (the clock, each player's score,
// each player's loadout, each pickup lying on the floor), for a player who
// just joined. It changes nothing that ChangedRecords reports.
func (w *World) AllRecords(fn func(Record)) {
	fn(w.clockRecord())
	for i := range w.players {
		if p := &w.players[i]; p.active {
			fn(scoreRecord(p))
		}
	}
	for i := range w.players {
		if p := &w.players[i]; p.active {
			fn(loadoutRecord(p))
		}
	}
	for k := range w.pickups {
		if w.pickups[k].live {
			fn(w.pickupRecord(k))
		}
	}
}

func (w *World) clockRecord() Record {
	return Record{Kind: RecordClock, Clock: w.Clock()}
}

// scoreRecord returns the player's score record, with the accuracy last
// published (ChangedRecords), so that AllRecords tells a newcomer what the
// others hold.
func scoreRecord(p *player) Record {
	return Record{Kind: RecordScore, Index: uint32(p.id),
		Score: Score{Name: p.name, Kills: p.kills, Deaths: p.deaths, Score: p.score, Shots: p.pubShots, Hits: p.pubHits}}
}

func loadoutRecord(p *player) Record {
	return Record{Kind: RecordLoadout, Index: uint32(p.id), Loadout: p.loadout()}
}

func (w *World) pickupRecord(k int) Record {
	pk := &w.pickups[k]
	r := Record{Kind: RecordPickup, Index: uint32(k), Generation: pk.gen, Deleted: !pk.live}
	if pk.live {
		r.Pickup = Pickup{X: uint16(pk.x), Y: uint16(pk.y), Kind: pk.kind}
	}
	return r
}
