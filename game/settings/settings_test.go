package settings

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sightline-game/sightline/game/arena"
)

func TestClean(t *testing.T) {
	long := strings.Repeat("é", 20) // 40 bytes: cut to 24, 12 characters
	for _, tc := range []struct {
		name string
		in   Settings
		want Settings
	}{
		{"defaults are clean", Defaults(), Defaults()},
		{"control characters out", Settings{Name: "a\x00b\x1bc\u202ed", MasterVolume: 0.5, EffectsVolume: 0.5},
			Settings{Name: "abcd", MasterVolume: 0.5, EffectsVolume: 0.5}},
		{"tabs and line breaks as spaces, ends trimmed", Settings{Name: "  ada\tlovelace\n"},
			Settings{Name: "ada lovelace"}},
		{"cut at a character boundary", Settings{Name: long, MasterVolume: 1, EffectsVolume: 0},
			Settings{Name: strings.Repeat("é", 12), MasterVolume: 1, EffectsVolume: 0}},
		{"space left at the cut trimmed", Settings{Name: strings.Repeat("x", 23) + " yz"},
			Settings{Name: strings.Repeat("x", 23)}},
		{"invalid UTF-8", Settings{Name: "ab\xffc"}, Settings{Name: "ab\uFFFDc"}},
		{"volumes clamped", Settings{MasterVolume: 1.7, EffectsVolume: -0.2}, Settings{MasterVolume: 1, EffectsVolume: 0}},
		{"NaN volumes take defaults", Settings{MasterVolume: math.NaN(), EffectsVolume: math.NaN()},
			Settings{MasterVolume: DefaultMasterVolume, EffectsVolume: DefaultEffectsVolume}},
		{"infinite volumes clamped", Settings{MasterVolume: math.Inf(1), EffectsVolume: math.Inf(-1)},
			Settings{MasterVolume: 1, EffectsVolume: 0}},
		{"toggles kept", Settings{Mute: true, Fullscreen: true, Overlay: true, MasterVolume: 0.3, EffectsVolume: 0.4},
			Settings{Mute: true, Fullscreen: true, Overlay: true, MasterVolume: 0.3, EffectsVolume: 0.4}},
	} {
		got := tc.in.Clean()
		if got != tc.want {
			t.Errorf("%s: Clean() = %+v, want %+v", tc.name, got, tc.want)
		}
		if !got.Valid() || got.Clean() != got {
			t.Errorf("%s: cleaning twice changes %+v", tc.name, got)
		}
		if len(got.Name) > arena.MaxNameBytes || !utf8.ValidString(got.Name) {
			t.Errorf("%s: name %q is not a valid name", tc.name, got.Name)
		}
	}
	if (Settings{MasterVolume: 2}).Valid() {
		t.Error("a volume of 2 reported valid")
	}
}

func TestStepVolume(t *testing.T) {
	for _, tc := range []struct {
		v     float64
		steps int
		want  float64
	}{
		{0.8, 1, 0.85},
		{0.8, -1, 0.75},
		{0.97, 1, 1},
		{1, 1, 1},
		{0.02, -1, 0},
		{0, -3, 0},
		{0.5, 4, 0.7},
		{0.8, -4, 0.6},
		{0.15, 0, 0.15},
		{0.51, 0, 0.5}, // snapped to the grid
		{math.NaN(), 1, 0.05},
	} {
		if got := StepVolume(tc.v, tc.steps); got != tc.want { // exact: the file says 0.6, not 0.6000000000000001
			t.Errorf("StepVolume(%v, %d) = %v, want %v", tc.v, tc.steps, got, tc.want)
		}
	}
}
