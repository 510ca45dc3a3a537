package settings

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Version is the version of the settings' JSON this game writes.
const Version = 1

// Errors reading settings.
var (
	// ErrCorrupt: the stored settings are not settings JSON.
	ErrCorrupt = errors.New("settings: corrupt")
	// ErrVersion: the stored settings carry no version this game knows of.
	ErrVersion = errors.New("settings: unknown version")
)

// file is the settings' JSON form.
type file struct {
	Version       int      `json:"version"`
	Name          *string  `json:"name,omitempty"`
	MasterVolume  *float64 `json:"master_volume,omitempty"`
	EffectsVolume *float64 `json:"effects_volume,omitempty"`
	Mute          *bool    `json:"mute,omitempty"`
	Fullscreen    *bool    `json:"fullscreen,omitempty"`
	Overlay       *bool    `json:"overlay,omitempty"`
	HowToPlaySeen *bool    `json:"how_to_play_seen,omitempty"`
}

// Marshal returns s, cleaned, as indented JSON with its version.
func Marshal(s Settings) ([]byte, error) {
	s = s.Clean()
	b, err := json.MarshalIndent(file{
		Version: Version, Name: &s.Name, MasterVolume: &s.MasterVolume, EffectsVolume: &s.EffectsVolume,
		Mute: &s.Mute, Fullscreen: &s.Fullscreen, Overlay: &s.Overlay, HowToPlaySeen: &s.HowToPlaySeen,
	}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	return append(b, '\n'), nil
}

// Unmarshal reads settings JSON, cleaned. A field missing takes its
// default; a newer version's file is read for the fields this version
// knows. On an error it returns Defaults and an error wrapping ErrCorrupt
// (not JSON, or a field of the wrong type) or ErrVersion (no version, or
// one below 1).
func Unmarshal(b []byte) (Settings, error) {
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return Defaults(), fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	if f.Version < 1 {
		return Defaults(), fmt.Errorf("%w: %d", ErrVersion, f.Version)
	}
	s := Defaults()
	set(&s.Name, f.Name)
	set(&s.MasterVolume, f.MasterVolume)
	set(&s.EffectsVolume, f.EffectsVolume)
	set(&s.Mute, f.Mute)
	set(&s.Fullscreen, f.Fullscreen)
	set(&s.Overlay, f.Overlay)
	set(&s.HowToPlaySeen, f.HowToPlaySeen)
	return s.Clean(), nil
}

// set copies *from into *to when the field was present.
func set[T any](to *T, from *T) {
	if from != nil {
		*to = *from
	}
}
