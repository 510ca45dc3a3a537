package settingsui

import (
	"math"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/settings"
)

func key(k Keys) Input { return Input{Pressed: k} }

func typed(s string) Input { return Input{Typed: []rune(s)} }

// click returns a click at the centre of r, or at fraction fx across it.
func click(r Rect, fx float64) Input {
	return Input{Click: true, Held: true, MouseX: r.X + fx*r.W, MouseY: r.Y + r.H/2}
}

func start() settings.Settings {
	return settings.Settings{Name: "ada", MasterVolume: 0.8, EffectsVolume: 0.5}
}

func TestFormKeysAndMouse(t *testing.T) {
	for _, tc := range []struct {
		name   string
		inputs []Input
		want   settings.Settings
		focus  Field
		closed bool
	}{
		{"nothing", nil, start(), FieldName, false},
		{"type the name", []Input{typed("x"), typed("yz")},
			settings.Settings{Name: "adaxyz", MasterVolume: 0.8, EffectsVolume: 0.5}, FieldName, false},
		{"backspace", []Input{key(KeyBackspace), key(KeyBackspace)},
			settings.Settings{Name: "a", MasterVolume: 0.8, EffectsVolume: 0.5}, FieldName, false},
		{"control characters not typed", []Input{typed("\x1b\t\u202e!")},
			settings.Settings{Name: "ada!", MasterVolume: 0.8, EffectsVolume: 0.5}, FieldName, false},
		{"m types in the name, does not mute", []Input{{Pressed: KeyMute, Typed: []rune("m")}},
			settings.Settings{Name: "adam", MasterVolume: 0.8, EffectsVolume: 0.5}, FieldName, false},
		{"Enter in the name moves on", []Input{key(KeyEnter)}, start(), FieldMaster, false},
		{"master volume up twice", []Input{key(KeyDown), key(KeyRight), key(KeyRight)},
			settings.Settings{Name: "ada", MasterVolume: 0.9, EffectsVolume: 0.5}, FieldMaster, false},
		{"effects volume down with minus", []Input{key(KeyDown), key(KeyDown), key(KeyMinus)},
			settings.Settings{Name: "ada", MasterVolume: 0.8, EffectsVolume: 0.45}, FieldEffects, false},
		{"volume stops at 1", []Input{key(KeyDown), key(KeyPlus), key(KeyPlus), key(KeyPlus), key(KeyPlus), key(KeyPlus)},
			settings.Settings{Name: "ada", MasterVolume: 1, EffectsVolume: 0.5}, FieldMaster, false},
		{"M mutes outside the name", []Input{key(KeyDown), key(KeyMute)},
			settings.Settings{Name: "ada", MasterVolume: 0.8, EffectsVolume: 0.5, Mute: true}, FieldMaster, false},
		{"Enter toggles fullscreen", []Input{key(KeyTab), key(KeyTab), key(KeyTab), key(KeyTab), key(KeyEnter)},
			settings.Settings{Name: "ada", MasterVolume: 0.8, EffectsVolume: 0.5, Fullscreen: true}, FieldFullscreen, false},
		{"space toggles the overlay", []Input{key(KeyShiftTab), key(KeyUp), key(KeySpace)},
			settings.Settings{Name: "ada", MasterVolume: 0.8, EffectsVolume: 0.5, Overlay: true}, FieldOverlay, false},
		{"Left toggles a switch", []Input{key(KeyDown), key(KeyDown), key(KeyDown), key(KeyLeft)},
			settings.Settings{Name: "ada", MasterVolume: 0.8, EffectsVolume: 0.5, Mute: true}, FieldMute, false},
		{"Up stops at the top", []Input{key(KeyUp), key(KeyUp)}, start(), FieldName, false},
		{"Down stops at Done", []Input{key(KeyDown), key(KeyDown), key(KeyDown), key(KeyDown), key(KeyDown), key(KeyDown), key(KeyDown), key(KeyDown)},
			start(), FieldDone, false},
		{"Tab goes round", []Input{key(KeyShiftTab), key(KeyTab)}, start(), FieldName, false},
		{"Enter on Done closes", []Input{key(KeyShiftTab), key(KeyEnter)}, start(), FieldDone, true},
		{"Esc closes", []Input{key(KeyEscape)}, start(), FieldName, true},
		{"click the master track at a quarter", []Input{click(ControlRect(FieldMaster), 0.25)},
			settings.Settings{Name: "ada", MasterVolume: 0.25, EffectsVolume: 0.5}, FieldMaster, false},
		{"click just past the track's end", []Input{{Click: true, Held: true, MouseX: ControlRect(FieldEffects).X + ControlRect(FieldEffects).W + 6, MouseY: ControlRect(FieldEffects).Y + 5}},
			settings.Settings{Name: "ada", MasterVolume: 0.8, EffectsVolume: 1}, FieldEffects, false},
		{"drag the effects slider", []Input{
			click(ControlRect(FieldEffects), 0.5),
			{Held: true, MouseX: ControlRect(FieldEffects).X + 0.1*SliderW, MouseY: 0},  // the drag leaves the row: still follows
			{Held: false, MouseX: ControlRect(FieldEffects).X + 0.9*SliderW, MouseY: 0}, // released: no more
		}, settings.Settings{Name: "ada", MasterVolume: 0.8, EffectsVolume: 0.1}, FieldEffects, false},
		{"click the mute row", []Input{click(RowRect(FieldMute), 0.1)},
			settings.Settings{Name: "ada", MasterVolume: 0.8, EffectsVolume: 0.5, Mute: true}, FieldMute, false},
		{"click the fullscreen switch twice", []Input{click(ControlRect(FieldFullscreen), 0.5), click(ControlRect(FieldFullscreen), 0.5)},
			start(), FieldFullscreen, false},
		{"click Done", []Input{click(ControlRect(FieldDone), 0.5)}, start(), FieldDone, true},
		{"click the Done row beside the button", []Input{click(RowRect(FieldDone), 0.02)}, start(), FieldDone, false},
		{"click the name, then type", []Input{key(KeyDown), click(ControlRect(FieldName), 0.5), typed("!")},
			settings.Settings{Name: "ada!", MasterVolume: 0.8, EffectsVolume: 0.5}, FieldName, false},
		{"wheel over the master row", []Input{{Wheel: 1, MouseX: RowRect(FieldMaster).X + 5, MouseY: RowRect(FieldMaster).Y + 5}, {Wheel: 1, MouseX: RowRect(FieldMaster).X + 5, MouseY: RowRect(FieldMaster).Y + 5}},
			settings.Settings{Name: "ada", MasterVolume: 0.9, EffectsVolume: 0.5}, FieldName, false},
		{"a click outside the panel changes nothing", []Input{{Click: true, Held: true, MouseX: 5, MouseY: 5}}, start(), FieldName, false},
	} {
		f := NewForm(start())
		var res Result
		for _, in := range tc.inputs {
			r := f.Update(in)
			res.Closed = res.Closed || r.Closed
		}
		got := f.Settings()
		if math.Abs(got.MasterVolume-tc.want.MasterVolume) < 1e-9 {
			got.MasterVolume = tc.want.MasterVolume
		}
		if math.Abs(got.EffectsVolume-tc.want.EffectsVolume) < 1e-9 {
			got.EffectsVolume = tc.want.EffectsVolume
		}
		if got != tc.want {
			t.Errorf("%s: settings %+v, want %+v", tc.name, got, tc.want)
		}
		if f.Focus() != tc.focus {
			t.Errorf("%s: focus %v, want %v", tc.name, f.Focus(), tc.focus)
		}
		if res.Closed != tc.closed {
			t.Errorf("%s: closed %v, want %v", tc.name, res.Closed, tc.closed)
		}
	}
}

func TestFormReportsChanges(t *testing.T) {
	f := NewForm(start())
	for _, tc := range []struct {
		in      Input
		changed bool
	}{
		{typed("b"), true},
		{typed(" "), false}, // a trailing space does not change the name
		{typed("c"), true},  // "adab c"
		{key(KeyDown), false},
		{key(KeyRight), true},
		{key(KeyUp), false},
		{Input{MouseX: 1, MouseY: 1}, false},
	} {
		if r := f.Update(tc.in); r.Changed != tc.changed {
			t.Errorf("after %+v: changed %v, want %v", tc.in, r.Changed, tc.changed)
		}
	}
	if got := f.Settings().Name; got != "adab c" {
		t.Errorf("name %q", got)
	}
}

func TestFormNameFitsTheServer(t *testing.T) {
	f := NewForm(settings.Defaults())
	f.Update(typed(strings.Repeat("é", 30)))
	if n := len(f.Settings().Name); n > arena.MaxNameBytes || n < arena.MaxNameBytes-1 {
		t.Fatalf("name of %d bytes, want up to %d", n, arena.MaxNameBytes)
	}
	if f.NameText() != f.Settings().Name {
		t.Fatalf("field shows %q, name is %q", f.NameText(), f.Settings().Name)
	}
}

func TestFormSetSettings(t *testing.T) {
	f := NewForm(start())
	f.Update(key(KeyDown))
	s := start()
	s.Mute = true
	f.SetSettings(s)
	if !f.Settings().Mute || f.Focus() != FieldMaster || f.NameText() != "ada" {
		t.Fatalf("after SetSettings: %+v, focus %v, name %q", f.Settings(), f.Focus(), f.NameText())
	}
}

func TestLayoutRowsDoNotOverlap(t *testing.T) {
	for i, fl := range Fields {
		r, c := RowRect(fl), ControlRect(fl)
		if c.X < r.X || c.Y < r.Y || c.X+c.W > r.X+r.W || c.Y+c.H > r.Y+r.H {
			t.Errorf("%v: control %+v outside its row %+v", fl, c, r)
		}
		if i > 0 && RowRect(Fields[i-1]).Y+RowH > r.Y {
			t.Errorf("%v overlaps the row above", fl)
		}
		if fl.Label() == "" {
			t.Errorf("%v has no label", fl)
		}
	}
	if PanelY+PanelH > 720 {
		t.Errorf("the panel ends at %v, below the screen", PanelY+PanelH)
	}
}
