package desktop

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/sightline-game/sightline/game/desktop/controls"
	"github.com/sightline-game/sightline/game/desktop/touch"
)

// Input reads the keyboard, mouse and gamepads once per Update and turns
// them into intents (controls.Map does the mapping; Input only reads the
// devices). While the chat line is open it also collects the typed text.
type Input struct {
	state   controls.State
	pads    []ebiten.GamepadID
	runes   []rune
	ids     []ebiten.TouchID
	touches []touch.Touch
	keys    []ebiten.Key     // scratch for AnyPress
	landed  []ebiten.TouchID // scratch for AnyPress
	typed   []rune           // the chat line being typed
	repeatN int              // frames Backspace has been held
}

// MaxChatRunes bounds the chat line being typed.
const MaxChatRunes = 120

var (
	keysUp    = []ebiten.Key{ebiten.KeyW, ebiten.KeyArrowUp}
	keysDown  = []ebiten.Key{ebiten.KeyS, ebiten.KeyArrowDown}
	keysLeft  = []ebiten.Key{ebiten.KeyA, ebiten.KeyArrowLeft}
	keysRight = []ebiten.Key{ebiten.KeyD, ebiten.KeyArrowRight}

	// pressKeys maps one-shot keys to controls.Keys.
	pressKeys = []struct {
		k   ebiten.Key
		key controls.Keys
	}{
		{ebiten.KeyEnter, controls.KeyEnter},
		{ebiten.KeyNumpadEnter, controls.KeyEnter},
		{ebiten.KeyEscape, controls.KeyEscape},
		{ebiten.KeyF3, controls.KeyF3},
		{ebiten.KeyDigit1, controls.KeyLossDown},
		{ebiten.KeyDigit2, controls.KeyLossUp},
		{ebiten.KeyDigit3, controls.KeyLatencyDown},
		{ebiten.KeyDigit4, controls.KeyLatencyUp},
		{ebiten.KeyDigit5, controls.KeyJitterDown},
		{ebiten.KeyDigit6, controls.KeyJitterUp},
		{ebiten.KeyDigit7, controls.KeyBurstDown},
		{ebiten.KeyDigit8, controls.KeyBurstUp},
		{ebiten.KeyDigit0, controls.KeyResetLink},
	}
)

func anyPressed(keys []ebiten.Key) bool {
	for _, k := range keys {
		if ebiten.IsKeyPressed(k) {
			return true
		}
	}
	return false
}

// Read samples the devices. (playerX, playerY) is where the player's own
// entity is on screen; typing and overlay are the UI's current modes.
func (in *Input) Read(playerX, playerY float64, typing, overlay bool) controls.State {
	s := &in.state
	*s = controls.State{Typing: typing, Overlay: overlay, PlayerX: playerX, PlayerY: playerY}
	s.Up, s.Down = anyPressed(keysUp), anyPressed(keysDown)
	s.Left, s.Right = anyPressed(keysLeft), anyPressed(keysRight)
	mx, my := ebiten.CursorPosition()
	s.MouseX, s.MouseY = float64(mx), float64(my)
	s.Fire = ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) || ebiten.IsKeyPressed(ebiten.KeySpace)
	s.Dash = ebiten.IsMouseButtonPressed(ebiten.MouseButtonRight) || ebiten.IsKeyPressed(ebiten.KeyShiftLeft)
	s.Scoreboard = ebiten.IsKeyPressed(ebiten.KeyTab)
	for _, p := range pressKeys {
		if inpututil.IsKeyJustPressed(p.k) {
			s.Pressed |= p.key
		}
	}
	in.keys = inpututil.AppendJustPressedKeys(in.keys[:0])
	in.landed = inpututil.AppendJustPressedTouchIDs(in.landed[:0])
	s.AnyPress = len(in.keys) > 0 || len(in.landed) > 0 ||
		inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) ||
		inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight) ||
		inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonMiddle)
	in.readGamepad(s)
	if typing {
		in.readTyping()
	}
	return *s
}

// readGamepad adds the first standard-layout gamepad: left stick moves,
// right stick aims, right trigger or A fires, left trigger dashes.
func (in *Input) readGamepad(s *controls.State) {
	in.pads = ebiten.AppendGamepadIDs(in.pads[:0])
	for _, id := range in.pads {
		if !ebiten.IsStandardGamepadLayoutAvailable(id) {
			continue
		}
		s.StickX = ebiten.StandardGamepadAxisValue(id, ebiten.StandardGamepadAxisLeftStickHorizontal)
		s.StickY = ebiten.StandardGamepadAxisValue(id, ebiten.StandardGamepadAxisLeftStickVertical)
		s.AimStickX = ebiten.StandardGamepadAxisValue(id, ebiten.StandardGamepadAxisRightStickHorizontal)
		s.AimStickY = ebiten.StandardGamepadAxisValue(id, ebiten.StandardGamepadAxisRightStickVertical)
		s.Fire = s.Fire || ebiten.StandardGamepadButtonValue(id, ebiten.StandardGamepadButtonFrontBottomRight) > 0.5 ||
			ebiten.IsStandardGamepadButtonPressed(id, ebiten.StandardGamepadButtonRightBottom)
		s.Dash = s.Dash || ebiten.StandardGamepadButtonValue(id, ebiten.StandardGamepadButtonFrontBottomLeft) > 0.5
		if inpututil.IsStandardGamepadButtonJustPressed(id, ebiten.StandardGamepadButtonCenterRight) {
			s.Pressed |= controls.KeyF3
		}
		s.Scoreboard = s.Scoreboard || ebiten.IsStandardGamepadButtonPressed(id, ebiten.StandardGamepadButtonCenterLeft)
		return
	}
}

// readTyping appends the characters typed this frame to the chat line and
// handles Backspace (with key repeat).
func (in *Input) readTyping() {
	in.runes = ebiten.AppendInputChars(in.runes[:0])
	for _, r := range in.runes {
		if len(in.typed) < MaxChatRunes && r >= ' ' {
			in.typed = append(in.typed, r)
		}
	}
	if ebiten.IsKeyPressed(ebiten.KeyBackspace) {
		in.repeatN++
		if (in.repeatN == 1 || (in.repeatN > 24 && in.repeatN%3 == 0)) && len(in.typed) > 0 {
			in.typed = in.typed[:len(in.typed)-1]
		}
	} else {
		in.repeatN = 0
	}
}

// Touches returns the fingers on the screen now, in logical px. The slice
// is reused by the next call.
func (in *Input) Touches() []touch.Touch {
	in.ids = ebiten.AppendTouchIDs(in.ids[:0])
	in.touches = in.touches[:0]
	for _, id := range in.ids {
		x, y := ebiten.TouchPosition(id)
		in.touches = append(in.touches, touch.Touch{ID: int(id), X: float64(x), Y: float64(y)})
	}
	return in.touches
}

// Typed returns the chat line typed so far.
func (in *Input) Typed() string { return string(in.typed) }

// ClearTyped empties the chat line.
func (in *Input) ClearTyped() { in.typed = in.typed[:0] }
