package protocol

import "github.com/sightline-game/sightline/game/arena"

// InputSize is the size of one encoded Input.
const InputSize = arena.InputSize

// Buttons held during a tick.
const (
	ButtonFire = arena.ButtonFire
	ButtonDash = arena.ButtonDash
)

// Input is what a player wants during one tick: the arena's input, which the
// server checks (a move longer than 1 is scaled down, unknown buttons are
// ignored, fire is limited to the weapon's rate).
type Input = arena.Input

// ParseInput reads an input from its InputSize bytes (p must hold them).
func ParseInput(p []byte) Input { return arena.ParseInput(p) }
