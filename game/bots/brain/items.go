package brain

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
)

// How a Brain uses the spread gun and the power-up.
const (
	// ItemReach is how far a bot that is not in a duel with a player walks
	// for a spread gun or a power-up, in px.
	ItemReach = 1600
	// ItemGrab is how near a spread gun or power-up must be for a bot to
	// fetch it in the middle of a fight, in px.
	ItemGrab = 220
	// SpreadRange is the farthest a bot holding the spread gun shoots at,
	// in px: within a pellet's reach (257 px), where the fan still lands.
	SpreadRange = 220
	// SpreadKeep is how far from its target a bot holding the spread gun
	// likes to stay, in px: point blank, where all three pellets hit.
	SpreadKeep = 90
	// refillBelow is the spread shots left under which a bot fetches
	// another spread gun.
	refillBelow = arena.SpreadShots / 2
	// maxItems bounds the pickups a bot keeps in mind.
	maxItems = 64
)

// Records is what a Brain reads of its client's replica records besides
// the snapshot: the pickups lying about and its own loadout.
// *client.Client is one; Play reads it when its View is one.
type Records interface {
	Player() (arena.PlayerID, bool)
	Records(fn func(id uint32, gen uint16, payload []byte))
}

// item is a spread gun or power-up lying about.
type item struct {
	x, y float64
	kind uint8
}

// itemState is what a Brain knows of the pickups and its loadout, from the
// last Read.
type itemState struct {
	items    [maxItems]item
	n        int
	me       arena.PlayerID
	loadout  arena.Loadout
	recordFn func(id uint32, gen uint16, payload []byte)
}

// Read takes in the spread guns and power-ups the records say lie about,
// and the bot's own loadout. It allocates nothing.
func (b *Brain) Read(r Records) {
	s := &b.items
	s.me, _ = r.Player()
	s.n = 0
	s.loadout = arena.Loadout{}
	if s.recordFn == nil {
		s.recordFn = b.record
	}
	r.Records(s.recordFn)
}

func (b *Brain) record(id uint32, _ uint16, payload []byte) {
	s := &b.items
	switch kind, index := protocol.RecordKind(id); kind {
	case protocol.RecordPickup:
		p, err := protocol.ParsePickup(payload)
		if err == nil && p.Kind != arena.PickupHealth && s.n < maxItems {
			s.items[s.n] = item{float64(p.X), float64(p.Y), p.Kind}
			s.n++
		}
	case protocol.RecordLoadout:
		if l, err := protocol.ParseLoadout(payload); err == nil && arena.PlayerID(index) == s.me {
			s.loadout = l
		}
	}
}

// Loadout returns the bot's loadout as the last Read saw it.
func (b *Brain) Loadout() arena.Loadout { return b.items.loadout }

// spread reports whether the bot holds the spread gun.
func (b *Brain) spread() bool { return b.items.loadout.Weapon == arena.WeaponSpread }

// fireRange is how far the bot shoots: the spread gun's short reach, or
// the gun's.
func (b *Brain) fireRange() float64 {
	if b.spread() {
		return SpreadRange
	}
	return FireRange
}

// keepDistance is how far from its target the bot likes to stay: point
// blank with the spread gun.
func (b *Brain) keepDistance() float64 {
	if b.spread() {
		return SpreadKeep
	}
	return KeepDistance
}

// wants reports whether the bot wants an item of kind: always a power-up
// (it starts the time again), a spread gun when it has few spread shots.
func (b *Brain) wants(kind uint8) bool {
	return kind == arena.PickupPower || b.items.loadout.Shots < refillBelow
}

// itemGoal decides whether the bot at (x, y) walks to an item this tick,
// and which: the nearest it wants, when within ItemGrab whatever it
// fights, or within ItemReach unless it fights a player in its line of
// fire (duel: creatures it shoots on the way).
func (b *Brain) itemGoal(x, y float64, duel bool) (gx, gy float64, ok bool) {
	s := &b.items
	d := math.Inf(1)
	for _, it := range s.items[:s.n] {
		if !b.wants(it.kind) {
			continue
		}
		if e := math.Hypot(it.x-x, it.y-y); e < d {
			gx, gy, d = it.x, it.y, e
		}
	}
	ok = d <= ItemGrab || (!duel && d <= ItemReach)
	return gx, gy, ok
}
