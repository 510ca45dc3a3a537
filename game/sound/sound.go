// Package sound decides which sound effects a client plays, how loud and
// from which side. A Mixer is fed with what the client already receives and
// knows (the match's events, its replica records, each new snapshot, the own
// player's dash and the menus' clicks) and hands play requests (an effect,
// a volume 0..1 and a stereo pan -1..1) to a Player, the audio backend.
// Nothing here plays a sample or imports Ebitengine: the desktop and browser
// clients implement Player with ebiten/v2/audio (game/desktop/audio), and
// the tests with a recorder.
//
// What plays on what:
//
//	shot         a projectile appears next to a player in a new snapshot;
//	             the own player's when fired (Mixer.OwnShot), its copies
//	             in the snapshots then silent (Mixer.HideShots)
//	spread       several appear at once at one spot (the spread gun's fan)
//	hit          a Hit event on another player, at that player; a
//	             creature's health dropping, at the creature
//	hurt         a Hit event on the own player (centred)
//	death        a Kill event, at the victim (centred for the own player);
//	             a hurt creature vanishing
//	pickup       a health pack's record deleted (taken), at the pack
//	power        a spread gun's or power-up's record deleted, at it
//	dash         the own player's dash starting (Mixer.Dash)
//	round_start  the clock record's round number going up
//	round_end    a RoundOver event
//	click        a menu button (Mixer.Click)
//	confirm      the own shot hit: a Hit event whose attacker is the own
//	             player (Mixer.HitConfirm), centred, besides the hit at
//	             the target
//
// Volume falls off with the square of the distance from the listener (the
// own player) to nothing at the hearing radius, and the pan follows the
// source's horizontal offset (dx / radius, clamped). At most Config.Voices
// effects play at once; a request beyond that replaces the quietest voice
// if it is louder, and is dropped otherwise. The same effect is not started
// twice within Config.Retrigger. Master volume, effects volume and mute
// multiply in.
package sound

// Sound is one sound effect; its String is its file name under
// assets/sounds (without .wav).
type Sound uint8

// The sound effects.
const (
	Shot Sound = iota
	Spread
	Hit
	Hurt
	Death
	Pickup
	Power
	Dash
	RoundStart
	RoundEnd
	Click
	Confirm
	// NumSounds counts the effects.
	NumSounds
)

// String returns the effect's file name: "shot", "round_start", ...
func (s Sound) String() string {
	switch s {
	case Shot:
		return "shot"
	case Spread:
		return "spread"
	case Hit:
		return "hit"
	case Hurt:
		return "hurt"
	case Death:
		return "death"
	case Pickup:
		return "pickup"
	case Power:
		return "power"
	case Dash:
		return "dash"
	case RoundStart:
		return "round_start"
	case RoundEnd:
		return "round_end"
	case Click:
		return "click"
	case Confirm:
		return "confirm"
	}
	return "unknown"
}

// level is each effect's own loudness before distance and the volume
// settings: frequent effects (shots) softer, rare and important ones
// (the own hurt, round changes) louder.
func level(s Sound) float64 {
	switch s {
	case Shot:
		return 0.55
	case Spread:
		return 0.65
	case Hit:
		return 0.7
	case Click:
		return 0.6
	case Confirm:
		return 0.5
	case Dash:
		return 0.6
	case Pickup, Power:
		return 0.8
	}
	return 0.9 // hurt, death, round start and end
}
