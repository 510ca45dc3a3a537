package arena

// MaxSlots bounds the entity slots of a world: creatures, players and
// projectiles together (Config.validate checks that they fit).
const MaxSlots = 1 << 12

// GenerationBits is the width of a slot's generation: every new occupant of
// a slot gets the next one, wrapping after 1<<GenerationBits.
const GenerationBits = 4

const maxGen = 1<<GenerationBits - 1

// Kind is what an entity is.
type Kind uint8

// Entity kinds.
const (
	KindPlayer Kind = iota
	KindCreature
	KindProjectile
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case KindPlayer:
		return "player"
	case KindCreature:
		return "creature"
	case KindProjectile:
		return "projectile"
	}
	return "unknown"
}

// Entity is one thing in the world as everyone may see it: where it is,
// which way it faces, and what shows on it.
type Entity struct {
	Slot       uint16 // its slot, the same for its whole life
	Generation uint8  // the slot's occupant number, wrapping at 1<<GenerationBits
	Kind       Kind
	X, Y       float64 // px
	Heading    float64 // radians in [0, 2π): walking direction, a player's aim, a projectile's flight
	Health     int     // players and creatures; 0 for projectiles

	Walking  bool // creatures: walking; players: moved on the last tick
	Dead     bool // players waiting to respawn
	Hurt     bool // took damage within the last HurtTicks
	Shielded bool // players: just spawned and takes no damage (SpawnShieldTicks)

	// Projectiles: where the shot left its shooter (px) and how many ticks
	// it has flown since (one on the tick it was fired). It flies straight
	// at ProjectileSpeed along Heading, so these give its whole path.
	SpawnX, SpawnY float64
	Flown          uint32
}

// AppendEntities appends every entity others can see to dst and returns
// it: live creatures, then players (dead ones too, Dead set), then live
// projectiles, in increasing slot order. It allocates nothing once dst has
// room for them all.
func (w *World) AppendEntities(dst []Entity) []Entity {
	for i := range w.creatures {
		c := &w.creatures[i]
		if c.dead {
			continue
		}
		dst = append(dst, Entity{
			Slot: uint16(i), Generation: w.gens[i], Kind: KindCreature,
			X: c.x, Y: c.y, Heading: c.heading, Health: c.health,
			Walking: c.walking, Hurt: w.tick < c.hurtUntil,
		})
	}
	for i := range w.players {
		p := &w.players[i]
		if !p.active {
			continue
		}
		slot := w.playerBase + i
		dst = append(dst, Entity{
			Slot: uint16(slot), Generation: w.gens[slot], Kind: KindPlayer,
			X: p.x, Y: p.y, Heading: p.aim, Health: p.health,
			Walking: p.moving, Dead: p.dead, Hurt: w.tick < p.hurtUntil,
			Shielded: !p.dead && w.tick < p.shieldUntil,
		})
	}
	for k := range w.shots {
		s := &w.shots[k]
		if s.live {
			slot := w.shotBase + k
			dst = append(dst, Entity{
				Slot: uint16(slot), Generation: w.gens[slot], Kind: KindProjectile,
				X: s.x, Y: s.y, Heading: s.heading,
				SpawnX: s.x0, SpawnY: s.y0, Flown: s.flown,
			})
		}
	}
	return dst
}
