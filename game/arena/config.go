package arena

import (
	"errors"
	"fmt"
)

// Defaults of Config's zero fields.
const (
	DefaultCreatures  = 300
	DefaultMaxPlayers = 64
	DefaultPickups    = 24
	DefaultRoundTicks = 5 * 60 * TickRate // five minutes
	// MaxPickups bounds Config.Pickups.
	MaxPickups = 1024
)

// ErrConfig is returned (wrapped) for an unusable Config.
var ErrConfig = errors.New("arena: invalid config")

// Config sets up a World. Zero fields take the defaults noted.
type Config struct {
	// Seed makes the match repeatable: the map (NewMap(Seed)), where things
	// spawn, how creatures roam. Same seed and inputs, same match.
	Seed uint64
	// Creatures is the number of creatures (default 300; negative: none).
	Creatures int
	// MaxPlayers is the number of player slots (default 64).
	MaxPlayers int
	// Pickups is the number of health packs (default 24; negative: none;
	// at most MaxPickups).
	Pickups int
	// RoundTicks is the length of a round in ticks (default 5 minutes).
	RoundTicks int
}

func (c Config) withDefaults() Config {
	switch {
	case c.Creatures == 0:
		c.Creatures = DefaultCreatures
	case c.Creatures < 0:
		c.Creatures = 0
	}
	if c.MaxPlayers == 0 {
		c.MaxPlayers = DefaultMaxPlayers
	}
	switch {
	case c.Pickups == 0:
		c.Pickups = DefaultPickups
	case c.Pickups < 0:
		c.Pickups = 0
	}
	if c.RoundTicks == 0 {
		c.RoundTicks = DefaultRoundTicks
	}
	return c
}

// validate checks a config with its defaults applied: every creature,
// player and projectile must have a slot at once (MaxSlots).
func (c Config) validate() error {
	switch {
	case c.MaxPlayers < 1:
		return fmt.Errorf("%w: MaxPlayers %d", ErrConfig, c.MaxPlayers)
	case c.RoundTicks < 1:
		return fmt.Errorf("%w: RoundTicks %d", ErrConfig, c.RoundTicks)
	case c.Pickups > MaxPickups:
		return fmt.Errorf("%w: %d pickups (at most %d)", ErrConfig, c.Pickups, MaxPickups)
	}
	if n := c.Creatures + c.MaxPlayers*(1+ShotsInFlight); n > MaxSlots {
		return fmt.Errorf("%w: %d creatures and %d players with %d projectiles each need %d slots (at most %d)",
			ErrConfig, c.Creatures, c.MaxPlayers, ShotsInFlight, n, MaxSlots)
	}
	return nil
}
