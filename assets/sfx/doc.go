// Package sfx synthesizes the game's sound effects: each is built from
// oscillators, filtered noise and envelopes (synth.go) by a short recipe
// (effects.go), deterministically, into 16-bit mono PCM at SampleRate.
//
// The game makes its sounds when it starts, from these recipes, rather than
// carrying them as files: the recipes are a few kilobytes of code where the
// sounds are some 130 KB of samples, which every browser player would
// otherwise download. Package assets hands them out (assets.Sound); the
// generator (package assets/gen) writes the same bytes under
// assets/sounds/, to listen to and to review.
package sfx

import "errors"

// ErrUnknown is returned for a sound effect no recipe makes.
var ErrUnknown = errors.New("sfx: no such sound effect")
