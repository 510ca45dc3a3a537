package settings

import (
	"math"
	"strings"
	"unicode"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
)

// Settings are the player's choices kept between runs.
type Settings struct {
	// Name is the player's name in matches; empty leaves it to the game
	// (the desktop uses the system user's name).
	Name string
	// MasterVolume scales every sound, 0..1.
	MasterVolume float64
	// EffectsVolume scales the sound effects, 0..1.
	EffectsVolume float64
	// Mute silences the game whatever the volumes.
	Mute bool
	// Fullscreen shows the game on the whole screen.
	Fullscreen bool
	// Overlay starts matches with the network overlay (F3) shown.
	Overlay bool
	// HowToPlaySeen: the player has dismissed the "how to play" card, which
	// a first match shows until then (the pause menu shows it again).
	HowToPlaySeen bool
}

// The default volumes: loud enough to hear, with room to turn them up.
const (
	DefaultMasterVolume  = 0.8
	DefaultEffectsVolume = 0.8
)

// VolumeSteps is how many steps a volume has from 0 to 1: one key press
// or wheel notch moves it by VolumeStep.
const (
	VolumeSteps = 20
	VolumeStep  = 1.0 / VolumeSteps
)

// Defaults returns the settings of a first run: no name chosen, the
// default volumes, sound on, a window, no overlay, the "how to play" card
// not seen yet.
func Defaults() Settings {
	return Settings{MasterVolume: DefaultMasterVolume, EffectsVolume: DefaultEffectsVolume}
}

// Clean returns s made valid: the name cleaned as the server cleans names
// (control characters out, spaces trimmed, at most arena.MaxNameBytes bytes
// cut at a character boundary) and the volumes clamped into 0..1 (a NaN
// volume takes its default).
func (s Settings) Clean() Settings {
	s.Name = CleanName(s.Name)
	s.MasterVolume = clampVolume(s.MasterVolume, DefaultMasterVolume)
	s.EffectsVolume = clampVolume(s.EffectsVolume, DefaultEffectsVolume)
	return s
}

// Valid reports whether s is already clean (Clean would change nothing).
func (s Settings) Valid() bool { return s.Clean() == s }

// CleanName returns name as the server would name the player: control
// characters removed, line breaks and tabs as spaces, surrounding spaces
// trimmed, cut to at most arena.MaxNameBytes bytes at a character boundary
// (and a space left at the cut's end trimmed too, so that cleaning twice
// changes nothing).
func CleanName(name string) string {
	return strings.TrimRightFunc(arena.CutName(protocol.CleanChat(name)), unicode.IsSpace)
}

// clampVolume returns v within 0..1, or def for a NaN.
func clampVolume(v, def float64) float64 {
	if math.IsNaN(v) {
		return def
	}
	return math.Max(0, math.Min(1, v))
}

// StepVolume returns v moved by steps VolumeSteps (down if negative),
// snapped to the step grid and clamped into 0..1.
func StepVolume(v float64, steps int) float64 {
	v = clampVolume(v, 0)
	n := math.Round(v*VolumeSteps) + float64(steps)
	return clampVolume(n/VolumeSteps, 0) // n/20, not n*0.05: 0.6, not 0.6000000000000001
}
