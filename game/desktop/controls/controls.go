// Package controls turns what the player's hands do (keys, mouse, gamepad)
// into what the game should do: a arena.Input for the next server tick and
// a handful of client-side actions (chat, scoreboard, network overlay, link
// conditioner). It is a pure function over a small state struct, so it is
// tested without a window; package desktop fills the struct from Ebitengine.
package controls

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
)

// State is the input devices as one frame saw them. Screen coordinates are
// the game's logical pixels.
type State struct {
	// Movement keys held: WASD or the arrow keys.
	Up, Down, Left, Right bool
	// StickX, StickY are the gamepad's left stick, -1..1 each (y down).
	StickX, StickY float64
	// AimStickX, AimStickY are the gamepad's right stick, -1..1 each.
	AimStickX, AimStickY float64

	// MouseX, MouseY are the cursor; PlayerX, PlayerY are where the
	// player's own entity is drawn. Aim points from the player to the cursor.
	MouseX, MouseY   float64
	PlayerX, PlayerY float64

	// Fire: left mouse button, space or the gamepad's right trigger.
	Fire bool
	// Dash: shift, right mouse button or the gamepad's left trigger.
	Dash bool
	// Scoreboard: Tab held.
	Scoreboard bool

	// Pressed holds the keys that went down this frame.
	Pressed Keys
	// AnyPress: some key, mouse button or finger went down this frame
	// (what dismisses the "how to play" card).
	AnyPress bool
	// Typing is true while the chat line is open: keys type, not play.
	Typing bool
	// Overlay is true while the network overlay is shown: only then do the
	// conditioner keys act.
	Overlay bool
}

// Keys is a set of one-shot key presses.
type Keys uint32

// The keys that act once per press.
const (
	KeyEnter       Keys = 1 << iota // open the chat line, or send it
	KeyEscape                       // close the chat line without sending
	KeyF3                           // toggle the network overlay
	KeyLossDown                     // 1: less added loss
	KeyLossUp                       // 2: more added loss
	KeyLatencyDown                  // 3: less added latency
	KeyLatencyUp                    // 4: more added latency
	KeyJitterDown                   // 5: less added jitter
	KeyJitterUp                     // 6: more added jitter
	KeyResetLink                    // 0: a clean link again
	KeyBurstDown                    // 7: shorter runs of losses
	KeyBurstUp                      // 8: longer runs of losses
)

// Action is a client-side thing to do this frame.
type Action uint32

// The actions.
const (
	ActionOpenChat      Action = 1 << iota // start typing a chat line
	ActionSendChat                         // send the line typed so far and close
	ActionCancelChat                       // close the chat line
	ActionToggleOverlay                    // show or hide the network overlay
	ActionConditions                       // the link conditions changed (see Intent.Conditions)
)

// Intent is what the frame's input means.
type Intent struct {
	// Input is the player's wish for the next tick. While typing it keeps
	// the aim but neither moves nor fires.
	Input arena.Input
	// Scoreboard asks for the scoreboard this frame.
	Scoreboard bool
	// Actions to take this frame.
	Actions Action
	// Conditions are the link conditions after this frame's keys, when
	// ActionConditions is set.
	Conditions Conditions
}

// Has reports whether a is among the intent's actions.
func (i Intent) Has(a Action) bool { return i.Actions&a != 0 }

// Deadzone is how far a stick must lean before it counts.
const Deadzone = 0.15

// Map turns one frame's State into an Intent. cond is the link conditions in
// force, which the conditioner keys step from.
func Map(s State, cond Conditions) Intent {
	var it Intent
	it.Input.Aim = aim(s)
	if s.Typing {
		switch {
		case s.Pressed&KeyEnter != 0:
			it.Actions |= ActionSendChat
		case s.Pressed&KeyEscape != 0:
			it.Actions |= ActionCancelChat
		}
		return it
	}
	it.Input.MoveX, it.Input.MoveY = move(s)
	if s.Fire {
		it.Input.Buttons |= arena.ButtonFire
	}
	if s.Dash {
		it.Input.Buttons |= arena.ButtonDash
	}
	it.Scoreboard = s.Scoreboard
	if s.Pressed&KeyEnter != 0 {
		it.Actions |= ActionOpenChat
	}
	if s.Pressed&KeyF3 != 0 {
		it.Actions |= ActionToggleOverlay
	}
	if s.Overlay {
		if c, ok := cond.Step(s.Pressed); ok {
			it.Actions |= ActionConditions
			it.Conditions = c
		}
	}
	return it
}

// move returns the stick from the keys, or from the gamepad when it leans
// further than the dead zone; full strength is ±127 on each axis (the server
// scales a diagonal down to length 1).
func move(s State) (int8, int8) {
	var x, y float64
	if s.Left {
		x--
	}
	if s.Right {
		x++
	}
	if s.Up {
		y--
	}
	if s.Down {
		y++
	}
	sx, sy := finite(s.StickX), finite(s.StickY)
	if x == 0 && y == 0 && math.Hypot(sx, sy) > Deadzone {
		x, y = sx, sy
	}
	return axis(x), axis(y)
}

// finite returns v, or 0 for a NaN or infinite reading.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

func axis(v float64) int8 {
	return int8(math.Round(math.Max(-1, math.Min(1, v)) * 127))
}

// aim returns the direction from the player to the cursor in radians, in
// screen (and world) orientation: 0 is +x, π/2 is +y (down). The gamepad's
// right stick wins when it leans past the dead zone.
func aim(s State) float64 {
	dx, dy := s.MouseX-s.PlayerX, s.MouseY-s.PlayerY
	if ax, ay := finite(s.AimStickX), finite(s.AimStickY); math.Hypot(ax, ay) > 2*Deadzone {
		dx, dy = ax, ay
	}
	if dx == 0 && dy == 0 {
		return 0
	}
	a := math.Atan2(dy, dx)
	if a < 0 {
		a += 2 * math.Pi
	}
	return a
}
