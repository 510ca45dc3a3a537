package settingsui

import (
	"github.com/sightline-game/sightline/game/settings"
)

// Field is one line of the settings screen.
type Field int

// The settings screen's fields, top to bottom.
const (
	FieldName Field = iota
	FieldMaster
	FieldEffects
	FieldMute
	FieldFullscreen
	FieldOverlay
	FieldDone
	fieldCount
)

// Fields are the screen's fields in order.
var Fields = [...]Field{FieldName, FieldMaster, FieldEffects, FieldMute, FieldFullscreen, FieldOverlay, FieldDone}

// Label returns the field's label on the screen.
func (f Field) Label() string {
	switch f {
	case FieldName:
		return "Name"
	case FieldMaster:
		return "Master volume"
	case FieldEffects:
		return "Effects volume"
	case FieldMute:
		return "Mute (M)"
	case FieldFullscreen:
		return "Fullscreen"
	case FieldOverlay:
		return "Network overlay (F3)"
	case FieldDone:
		return "Done"
	}
	return ""
}

// Slider reports whether the field is a volume.
func (f Field) Slider() bool { return f == FieldMaster || f == FieldEffects }

// Toggle reports whether the field is on or off.
func (f Field) Toggle() bool { return f == FieldMute || f == FieldFullscreen || f == FieldOverlay }

// The screen's layout in logical pixels (a 1280×720 screen): a panel in
// the middle, a heading, then one row per field.
const (
	PanelW = 640.0
	PanelX = (1280 - PanelW) / 2
	PanelY = 110.0
	HeadH  = 70.0
	RowH   = 54.0
	PanelH = HeadH + float64(fieldCount)*RowH + 50
	// ControlX is where a row's control (field, slider, switch) starts.
	ControlX = PanelX + 260
	// SliderW is a slider track's width; its value is written after it.
	SliderW = PanelW - 260 - 110
	// ControlH is a control's height, centred in its row.
	ControlH = 30.0
)

// RowRect returns field f's row.
func RowRect(f Field) Rect {
	return Rect{X: PanelX, Y: PanelY + HeadH + float64(f)*RowH, W: PanelW, H: RowH}
}

// ControlRect returns field f's control: the name's box, the slider's
// track, the switch, or the Done button.
func ControlRect(f Field) Rect {
	r := RowRect(f)
	y := r.Y + (RowH-ControlH)/2
	switch {
	case f == FieldName:
		return Rect{X: ControlX, Y: y, W: PanelX + PanelW - 24 - ControlX, H: ControlH}
	case f.Slider():
		return Rect{X: ControlX, Y: y, W: SliderW, H: ControlH}
	case f.Toggle():
		return Rect{X: ControlX, Y: y, W: 76, H: ControlH}
	case f == FieldDone:
		return Rect{X: PanelX + (PanelW-160)/2, Y: y, W: 160, H: ControlH}
	}
	return r
}

// Result says what an Update did.
type Result struct {
	// Changed: the settings changed (Settings has them).
	Changed bool
	// Closed: the player left the screen (Esc, or Done).
	Closed bool
}

// Form is the settings screen's state: the settings being edited, which
// field has the keys, and the slider being dragged.
type Form struct {
	s     settings.Settings
	name  TextField
	focus Field
	drag  Field // the slider the mouse holds, or -1
}

// NewForm returns the screen showing s, with the keys on the name.
func NewForm(s settings.Settings) *Form {
	s = s.Clean()
	return &Form{s: s, name: NewTextField(s.Name), drag: -1}
}

// Settings returns the settings as edited so far (cleaned).
func (f *Form) Settings() settings.Settings { return f.s }

// SetSettings replaces the settings shown (say, after M muted from
// elsewhere), keeping the focus; the name field is reset to s's name.
func (f *Form) SetSettings(s settings.Settings) {
	f.s = s.Clean()
	if f.name.Name() != f.s.Name {
		f.name = NewTextField(f.s.Name)
	}
}

// NameText returns the name field as typed (Settings().Name is it cleaned).
func (f *Form) NameText() string { return f.name.Text() }

// Focus returns the field with the keys.
func (f *Form) Focus() Field { return f.focus }

// Dragging returns the slider the mouse holds, if any.
func (f *Form) Dragging() (Field, bool) { return f.drag, f.drag >= 0 }

// Update applies one frame of input and says what changed.
func (f *Form) Update(in Input) Result {
	before := f.s
	var res Result
	f.keys(in, &res)
	f.mouse(in, &res)
	f.s.Name = f.name.Name()
	res.Changed = f.s != before
	return res
}

// keys applies the frame's key presses and typing.
func (f *Form) keys(in Input, res *Result) {
	if in.Has(KeyEscape) {
		res.Closed = true
		return
	}
	typing := f.focus == FieldName
	if typing {
		f.name.Type(in.Typed...)
		if in.Has(KeyBackspace) {
			f.name.Backspace()
		}
	}
	switch {
	case in.Has(KeyUp), in.Has(KeyShiftTab) && f.focus > 0:
		f.focus = max(f.focus-1, 0)
	case in.Has(KeyShiftTab):
		f.focus = fieldCount - 1
	case in.Has(KeyDown), in.Has(KeyTab) && f.focus < fieldCount-1:
		f.focus = min(f.focus+1, fieldCount-1)
	case in.Has(KeyTab):
		f.focus = 0
	case in.Has(KeyEnter):
		switch {
		case f.focus == FieldDone:
			res.Closed = true
		case f.focus.Toggle():
			f.toggle(f.focus)
		case f.focus == FieldName:
			f.focus++ // the name is typed: on to the next field
		}
	}
	if !typing {
		if in.Has(KeySpace) && f.focus.Toggle() {
			f.toggle(f.focus)
		}
		if in.Has(KeyMute) {
			f.toggle(FieldMute)
		}
	}
	step := 0
	if in.Has(KeyLeft) || (!typing && in.Has(KeyMinus)) {
		step--
	}
	if in.Has(KeyRight) || (!typing && in.Has(KeyPlus)) {
		step++
	}
	switch {
	case step == 0:
	case f.focus.Slider():
		f.setVolume(f.focus, settings.StepVolume(f.volume(f.focus), step))
	case f.focus.Toggle():
		f.toggle(f.focus)
	}
}

// mouse applies the frame's clicks, drags and wheel.
func (f *Form) mouse(in Input, res *Result) {
	x, y := in.MouseX, in.MouseY
	if f.drag >= 0 {
		if !in.Held {
			f.drag = -1
		} else {
			f.setVolume(f.drag, sliderValue(f.drag, x))
		}
	}
	if in.Wheel != 0 {
		for _, fl := range Fields {
			if fl.Slider() && RowRect(fl).Contains(x, y) {
				steps := 1
				if in.Wheel < 0 {
					steps = -1
				}
				f.setVolume(fl, settings.StepVolume(f.volume(fl), steps))
			}
		}
	}
	if !in.Click {
		return
	}
	for _, fl := range Fields {
		if !RowRect(fl).Contains(x, y) {
			continue
		}
		f.focus = fl
		c := ControlRect(fl)
		switch {
		case fl.Slider():
			// The track takes clicks a little beyond its ends, for 0 and 1.
			if x >= c.X-12 && x < c.X+c.W+12 {
				f.drag = fl
				f.setVolume(fl, sliderValue(fl, x))
			}
		case fl.Toggle():
			f.toggle(fl)
		case fl == FieldDone:
			if c.Contains(x, y) {
				res.Closed = true
			}
		}
		return
	}
}

// sliderValue returns the volume at x on field fl's track, snapped to the
// step grid.
func sliderValue(fl Field, x float64) float64 {
	c := ControlRect(fl)
	return settings.StepVolume((x-c.X)/c.W, 0)
}

func (f *Form) volume(fl Field) float64 {
	if fl == FieldMaster {
		return f.s.MasterVolume
	}
	return f.s.EffectsVolume
}

func (f *Form) setVolume(fl Field, v float64) {
	if fl == FieldMaster {
		f.s.MasterVolume = v
	} else {
		f.s.EffectsVolume = v
	}
}

// Value returns a toggle field's state.
func (f *Form) Value(fl Field) bool {
	switch fl {
	case FieldMute:
		return f.s.Mute
	case FieldFullscreen:
		return f.s.Fullscreen
	case FieldOverlay:
		return f.s.Overlay
	}
	return false
}

// Volume returns a slider field's volume.
func (f *Form) Volume(fl Field) float64 { return f.volume(fl) }

func (f *Form) toggle(fl Field) {
	switch fl {
	case FieldMute:
		f.s.Mute = !f.s.Mute
	case FieldFullscreen:
		f.s.Fullscreen = !f.s.Fullscreen
	case FieldOverlay:
		f.s.Overlay = !f.s.Overlay
	}
}
