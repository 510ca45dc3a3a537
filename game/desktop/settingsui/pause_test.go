package settingsui

import "testing"

func TestPause(t *testing.T) {
	full := NewPause(true, true)
	for _, tc := range []struct {
		name   string
		p      *Pause
		inputs []Input
		moved  bool
		want   PauseItem
		chosen bool
	}{
		{"nothing", full, []Input{{}}, false, PauseResume, false},
		{"Esc resumes", full, []Input{key(KeyEscape)}, false, PauseResume, true},
		{"Enter resumes", full, []Input{key(KeyEnter)}, false, PauseResume, true},
		{"down, Enter: settings", full, []Input{key(KeyDown), key(KeyEnter)}, false, PauseSettings, true},
		{"down twice: how to play", full, []Input{key(KeyDown), key(KeyDown), key(KeyEnter)}, false, PauseHowTo, true},
		{"down three times: leave", full, []Input{key(KeyDown), key(KeyDown), key(KeyDown), key(KeySpace)}, false, PauseLeave, true},
		{"up from the top: quit", full, []Input{key(KeyUp), key(KeyEnter)}, false, PauseQuit, true},
		{"without leave and quit, down three times wraps", NewPause(false, false), []Input{key(KeyDown), key(KeyTab), key(KeyDown), key(KeyEnter)}, false, PauseResume, true},
		{"click how to play", full, []Input{click(full.ItemRect(2), 0.5)}, false, PauseHowTo, true},
		{"click settings", full, []Input{click(full.ItemRect(1), 0.5)}, false, PauseSettings, true},
		{"click beside the menu", full, []Input{{Click: true, MouseX: 10, MouseY: 10}}, false, PauseResume, false},
	} {
		var got PauseItem
		var ok bool
		p := NewPause(len(tc.p.items) > 3, len(tc.p.items) > 4)
		for _, in := range tc.inputs {
			if got, ok = p.Update(in, tc.moved); ok {
				break
			}
		}
		if ok != tc.chosen || (ok && got != tc.want) {
			t.Errorf("%s: %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.chosen)
		}
	}
}

func TestPauseHoverSelects(t *testing.T) {
	p := NewPause(true, false)
	r := p.ItemRect(3)
	if _, ok := p.Update(Input{MouseX: r.X + 4, MouseY: r.Y + 4}, false); ok || p.Selected() != 0 {
		t.Fatalf("a cursor at rest selected %d", p.Selected())
	}
	if _, ok := p.Update(Input{MouseX: r.X + 5, MouseY: r.Y + 4}, true); ok || p.Selected() != 3 {
		t.Fatalf("a moving cursor over Leave selected %d", p.Selected())
	}
	if got, ok := p.Update(key(KeyEnter), false); !ok || got != PauseLeave {
		t.Fatalf("Enter chose %v", got)
	}
	for i, it := range p.Items() {
		if it.Label() == "" {
			t.Errorf("item %d has no label", i)
		}
	}
}

// "Copy join link" comes after "How to play", once, and Enter on it
// chooses it.
func TestPauseOfferCopy(t *testing.T) {
	p := NewPause(true, true)
	p.OfferCopy()
	p.OfferCopy()
	want := []PauseItem{PauseResume, PauseSettings, PauseHowTo, PauseCopy, PauseLeave, PauseQuit}
	if got := p.Items(); len(got) != len(want) {
		t.Fatalf("items %v, want %v", got, want)
	}
	for i, it := range p.Items() {
		if it != want[i] {
			t.Fatalf("items %v, want %v", p.Items(), want)
		}
	}
	if PauseCopy.Label() != "Copy join link" {
		t.Errorf("label %q", PauseCopy.Label())
	}
	var got PauseItem
	var ok bool
	for _, in := range []Input{key(KeyDown), key(KeyDown), key(KeyDown), key(KeyEnter)} {
		if got, ok = p.Update(in, false); ok {
			break
		}
	}
	if !ok || got != PauseCopy {
		t.Errorf("down three times, Enter: %v, %v; want Copy join link", got, ok)
	}
}
