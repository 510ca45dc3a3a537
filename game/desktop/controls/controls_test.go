package controls

import (
	"math"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
)

func TestKeysMove(t *testing.T) {
	for _, tc := range []struct {
		name   string
		s      State
		mx, my int8
	}{
		{"idle", State{}, 0, 0},
		{"up", State{Up: true}, 0, -127},
		{"down right", State{Down: true, Right: true}, 127, 127},
		{"left and right cancel", State{Left: true, Right: true}, 0, 0},
		{"stick", State{StickX: 0.5, StickY: -1}, 64, -127},
		{"stick in dead zone", State{StickX: 0.1, StickY: 0.05}, 0, 0},
		{"keys win over stick", State{Left: true, StickX: 1}, -127, 0},
		{"stick beyond range clamped", State{StickX: 3}, 127, 0},
		{"NaN stick", State{StickX: math.NaN(), StickY: 1}, 0, 127},
	} {
		it := Map(tc.s, Conditions{})
		if it.Input.MoveX != tc.mx || it.Input.MoveY != tc.my {
			t.Errorf("%s: move (%d, %d), want (%d, %d)", tc.name, it.Input.MoveX, it.Input.MoveY, tc.mx, tc.my)
		}
	}
}

func TestAimPointsFromPlayerToCursor(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    State
		want float64
	}{
		{"right", State{PlayerX: 640, PlayerY: 360, MouseX: 700, MouseY: 360}, 0},
		{"down (screen y grows down)", State{PlayerX: 640, PlayerY: 360, MouseX: 640, MouseY: 500}, math.Pi / 2},
		{"left", State{PlayerX: 640, PlayerY: 360, MouseX: 0, MouseY: 360}, math.Pi},
		{"up", State{PlayerX: 640, PlayerY: 360, MouseX: 640, MouseY: 0}, 3 * math.Pi / 2},
		{"on the player", State{PlayerX: 10, PlayerY: 10, MouseX: 10, MouseY: 10}, 0},
		{"right stick wins", State{PlayerX: 640, PlayerY: 360, MouseX: 700, MouseY: 360, AimStickX: -1}, math.Pi},
	} {
		got := Map(tc.s, Conditions{}).Input.Aim
		if math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: aim %.4f, want %.4f", tc.name, got, tc.want)
		}
	}
}

func TestButtons(t *testing.T) {
	it := Map(State{Fire: true, Dash: true, Scoreboard: true}, Conditions{})
	if it.Input.Buttons != arena.ButtonFire|arena.ButtonDash {
		t.Errorf("buttons %b", it.Input.Buttons)
	}
	if !it.Scoreboard {
		t.Error("Tab held should show the scoreboard")
	}
	if Map(State{}, Conditions{}).Input.Buttons != 0 {
		t.Error("no buttons held should fire nothing")
	}
}

func TestTypingSilencesPlay(t *testing.T) {
	s := State{Typing: true, Up: true, Fire: true, Scoreboard: true, Overlay: true,
		PlayerX: 0, PlayerY: 0, MouseX: 1, MouseY: 0, Pressed: KeyF3 | KeyLossUp}
	it := Map(s, Conditions{})
	if it.Input.MoveX != 0 || it.Input.MoveY != 0 || it.Input.Buttons != 0 || it.Scoreboard || it.Actions != 0 {
		t.Errorf("typing leaked into play: %+v", it)
	}
	s.Pressed = KeyEnter
	if it := Map(s, Conditions{}); !it.Has(ActionSendChat) || it.Has(ActionOpenChat) {
		t.Errorf("Enter while typing should send: %+v", it)
	}
	s.Pressed = KeyEscape
	if it := Map(s, Conditions{}); !it.Has(ActionCancelChat) {
		t.Errorf("Escape while typing should cancel: %+v", it)
	}
	if it := Map(State{Pressed: KeyEnter}, Conditions{}); !it.Has(ActionOpenChat) {
		t.Errorf("Enter should open chat: %+v", it)
	}
	if it := Map(State{Pressed: KeyF3}, Conditions{}); !it.Has(ActionToggleOverlay) {
		t.Errorf("F3 should toggle the overlay: %+v", it)
	}
}

func TestConditionerKeysOnlyWithOverlay(t *testing.T) {
	if it := Map(State{Pressed: KeyLossUp}, Conditions{}); it.Has(ActionConditions) {
		t.Error("conditioner keys must do nothing while the overlay is hidden")
	}
	it := Map(State{Overlay: true, Pressed: KeyLossUp | KeyLatencyUp | KeyJitterUp}, Conditions{})
	want := Conditions{Loss: LossStep, Latency: LatencyStep, Jitter: JitterStep}
	if !it.Has(ActionConditions) || it.Conditions != want {
		t.Errorf("got %+v, want %+v", it.Conditions, want)
	}
}

func TestConditionsStayInRange(t *testing.T) {
	var c Conditions
	for range 100 {
		c, _ = c.Step(KeyLossUp | KeyLatencyUp | KeyJitterUp | KeyBurstUp)
	}
	if c != (Conditions{Loss: MaxLoss, Burst: MaxBurst, Latency: MaxLatency, Jitter: MaxJitter}) {
		t.Errorf("after raising: %+v", c)
	}
	if c.Loss != 0.5 || c.Latency != 300*time.Millisecond || c.Jitter != 100*time.Millisecond {
		t.Errorf("ranges are 0-50%%, 0-300 ms, 0-100 ms: %+v", c)
	}
	c, _ = c.Step(KeyResetLink)
	if c != (Conditions{}) {
		t.Errorf("reset: %+v", c)
	}
	// Bursts: one press from independent losses gives runs of 2; coming
	// down, runs of 1 are independent losses again.
	for _, tc := range []struct {
		keys Keys
		want float64
	}{{KeyBurstUp, 2}, {KeyBurstUp, 3}, {KeyBurstDown, 2}, {KeyBurstDown, 0}, {KeyBurstDown, 0}, {KeyBurstUp, 2}} {
		c, _ = c.Step(tc.keys)
		if c.Burst != tc.want {
			t.Fatalf("after %b: burst %v, want %v", tc.keys, c.Burst, tc.want)
		}
	}
	for range 3 {
		c, _ = c.Step(KeyLossDown | KeyLatencyDown | KeyJitterDown | KeyBurstDown)
	}
	if c != (Conditions{}) {
		t.Errorf("lowering below zero: %+v", c)
	}
	// Ten steps up then ten down come back to exactly zero.
	for range 10 {
		c, _ = c.Step(KeyLossUp)
	}
	if c.Loss != 0.5 {
		t.Errorf("ten loss steps: %v", c.Loss)
	}
	for range 10 {
		c, _ = c.Step(KeyLossDown)
	}
	if c.Loss != 0 {
		t.Errorf("back down: %v", c.Loss)
	}
	if _, ok := c.Step(KeyEnter | KeyF3); ok {
		t.Error("non-conditioner keys reported a change")
	}
}
