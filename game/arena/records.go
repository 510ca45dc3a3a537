package arena

// Records are the state a client must hold exactly: the round clock, each
// player's name and score, and where the health packs lie. The world keeps
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
	// RecordPickup is a health pack (Record.Pickup); Index is its number
	// from 0. It is deleted when taken and comes back elsewhere with the
	// next Generation.
	RecordPickup
)

// Pickup kinds.
const (
	PickupHealth uint8 = iota // heals PickupHeal
)

// Clock is the round clock: the current round and the ticks it started
// and ends on. Ticks count Steps: the first round starts at tick 0 and
// ends, with EventRoundOver, on the Step that reaches End.
type Clock struct {
	Round      uint32
	Start, End uint32
}

// Remaining returns the ticks left in the round at tick (0 once over).
func (c Clock) Remaining(tick uint32) uint32 {
	if tick >= c.End {
		return 0
	}
	return c.End - tick
}

// Score is a player's name and score.
type Score struct {
	Name                 string // at most MaxNameBytes bytes of UTF-8
	Kills, Deaths, Score uint32
}

// Pickup is where a health pack lies, in whole px.
type Pickup struct {
	X, Y uint16
	Kind uint8
}

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
}

// ChangedRecords calls fn for every record that changed since the previous
// call (the first call reports them all): the clock if a round began, then
// deletions of the score records of players who left, then the score
// records of players whose name or score changed (in slot order), then the
// health packs taken (deleted) or back, in order.
func (w *World) ChangedRecords(fn func(Record)) {
	if w.clockDirty {
		w.clockDirty = false
		fn(w.clockRecord())
	}
	for _, id := range w.removed {
		fn(Record{Kind: RecordScore, Index: uint32(id), Deleted: true})
	}
	w.removed = w.removed[:0]
	for i := range w.players {
		if p := &w.players[i]; p.active && p.dirty {
			p.dirty = false
			fn(scoreRecord(p))
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
// each health pack lying on the floor), for a player who just joined. It
// changes nothing that ChangedRecords reports.
func (w *World) AllRecords(fn func(Record)) {
	fn(w.clockRecord())
	for i := range w.players {
		if p := &w.players[i]; p.active {
			fn(scoreRecord(p))
		}
	}
	for k := range w.pickups {
		if w.pickups[k].live {
			fn(w.pickupRecord(k))
		}
	}
}

func (w *World) clockRecord() Record {
	return Record{Kind: RecordClock, Clock: Clock{Round: w.round, Start: w.roundStart, End: w.roundEnd}}
}

func scoreRecord(p *player) Record {
	return Record{Kind: RecordScore, Index: uint32(p.id),
		Score: Score{Name: p.name, Kills: p.kills, Deaths: p.deaths, Score: p.score}}
}

func (w *World) pickupRecord(k int) Record {
	pk := &w.pickups[k]
	r := Record{Kind: RecordPickup, Index: uint32(k), Generation: pk.gen, Deleted: !pk.live}
	if pk.live {
		r.Pickup = Pickup{X: uint16(pk.x), Y: uint16(pk.y), Kind: PickupHealth}
	}
	return r
}
