package arena

// MaxPendingEvents bounds the events kept between two TakeEvents calls;
// beyond it new ones are dropped and counted (Stats.EventsDropped).
const MaxPendingEvents = 4096

// EventKind says what happened.
type EventKind uint8

// Event kinds.
const (
	// EventHit: a player took damage (Event.Hit). Hits on creatures are
	// not events: creatures have no player id, and their entity shows Hurt.
	EventHit EventKind = iota + 1
	// EventKill: a player died (Event.Kill). Creature deaths are not
	// events: the creature's entity goes, and the shooter's score record
	// changes.
	EventKill
	// EventRoundOver: the round ended (Event.RoundOver).
	EventRoundOver
)

// Weapon is what dealt a kill.
type Weapon uint8

// Weapons.
const (
	WeaponGun    Weapon = iota // a player's gun shot
	WeaponBite                 // a creature's bite (killer 0)
	WeaponSpread               // a player's spread gun pellet
)

// Hit is a player taking damage.
type Hit struct {
	Attacker PlayerID // the shooter, or 0 for a creature's bite
	Target   PlayerID // the player hit
	Damage   int      // the health taken
	// Shot is the sequence number of the attacker's input that fired the
	// projectile (0 for a bite), so that the shooter's client knows which
	// of its shots hit.
	Shot uint32
}

// Kill is a player's death.
type Kill struct {
	Killer PlayerID // whose shot killed, or 0 for a creature
	Victim PlayerID
	Weapon Weapon
	// Judged is how the fatal blow was judged: the moment of the world the
	// projectile met the victim in (its shooter's view, for a shot judged
	// in the past) and where the victim stood then. The killcam draws it.
	Judged Judged
}

// RoundOver is the end of a round: the intermission starts.
type RoundOver struct {
	Round  uint32   // its number, 1 for the first
	Winner PlayerID // the player with the highest score, 0 if nobody scored
}

// Event is a one-shot happening: Kind says which of its fields holds it.
type Event struct {
	Kind      EventKind
	Hit       Hit
	Kill      Kill
	RoundOver RoundOver
}

func (w *World) emit(e Event) {
	if len(w.events) >= MaxPendingEvents {
		w.stats.EventsDropped++
		return
	}
	w.events = append(w.events, e)
}

// TakeEvents calls fn, in order, for every happening since the previous
// call, then forgets them.
func (w *World) TakeEvents(fn func(Event)) {
	for _, e := range w.events {
		fn(e)
	}
	w.events = w.events[:0]
}
