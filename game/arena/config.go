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
	// DefaultSpreadGuns and DefaultPowerUps are the spread guns and
	// power-ups lying among the health packs: a few, so that they are worth
	// walking to and worth fighting over.
	DefaultSpreadGuns = 4
	DefaultPowerUps   = 2
	// DefaultIntermissionTicks is the pause between two rounds: 5 s.
	DefaultIntermissionTicks = 5 * TickRate
	// MaxPickups bounds the pickups of every kind together.
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
	// SpreadGuns is the number of spread gun pickups (default 4; negative:
	// none), PowerUps the number of power-ups (default 2; negative: none).
	// They follow the health packs in the pickup numbering: packs 0 to
	// Pickups-1, then the spread guns, then the power-ups.
	SpreadGuns, PowerUps int
	// IntermissionTicks is the pause between a round's end and the next
	// round's start (default 5 s; negative: none).
	IntermissionTicks int
	// RewindTicks is how far back, at most, a shot is judged against the
	// targets as its shooter saw them (View): default DefaultRewindTicks,
	// at most MaxRewindTicks; negative: every shot is judged in the
	// present.
	RewindTicks int
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
	c.SpreadGuns = orDefault(c.SpreadGuns, DefaultSpreadGuns)
	c.PowerUps = orDefault(c.PowerUps, DefaultPowerUps)
	c.IntermissionTicks = orDefault(c.IntermissionTicks, DefaultIntermissionTicks)
	c.RewindTicks = orDefault(c.RewindTicks, DefaultRewindTicks)
	return c
}

// orDefault returns def for 0, 0 for a negative n, else n.
func orDefault(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

// allPickups is the number of pickups of every kind.
func (c Config) allPickups() int { return c.Pickups + c.SpreadGuns + c.PowerUps }

// validate checks a config with its defaults applied: every creature,
// player and projectile must have a slot at once (MaxSlots).
func (c Config) validate() error {
	switch {
	case c.MaxPlayers < 1:
		return fmt.Errorf("%w: MaxPlayers %d", ErrConfig, c.MaxPlayers)
	case c.RoundTicks < 1:
		return fmt.Errorf("%w: RoundTicks %d", ErrConfig, c.RoundTicks)
	case c.RewindTicks > MaxRewindTicks:
		return fmt.Errorf("%w: RewindTicks %d (at most %d)", ErrConfig, c.RewindTicks, MaxRewindTicks)
	case c.allPickups() > MaxPickups:
		return fmt.Errorf("%w: %d pickups (at most %d)", ErrConfig, c.allPickups(), MaxPickups)
	}
	if n := c.Creatures + c.MaxPlayers*(1+ShotsInFlight); n > MaxSlots {
		return fmt.Errorf("%w: %d creatures and %d players with %d projectiles each need %d slots (at most %d)",
			ErrConfig, c.Creatures, c.MaxPlayers, ShotsInFlight, n, MaxSlots)
	}
	return nil
}
