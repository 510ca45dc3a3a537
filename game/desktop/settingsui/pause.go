package settingsui

import "slices"

// PauseItem is a line of the pause menu.
type PauseItem int

// The pause menu's items.
const (
	PauseResume   PauseItem = iota // back to the match
	PauseSettings                  // the settings screen
	PauseHowTo                     // the "how to play" card again
	PauseLeave                     // leave the match for the start menu
	PauseQuit                      // close the game
	PauseCopy                      // copy the match's join link to the clipboard
)

// Label returns the item's text.
func (p PauseItem) Label() string {
	switch p {
	case PauseResume:
		return "Resume"
	case PauseSettings:
		return "Settings"
	case PauseHowTo:
		return "How to play"
	case PauseLeave:
		return "Leave match"
	case PauseQuit:
		return "Quit game"
	case PauseCopy:
		return "Copy join link"
	}
	return ""
}

// The pause menu's layout: a narrow panel in the middle of the screen.
const (
	PauseW     = 320.0
	PauseX     = (1280 - PauseW) / 2
	PauseHeadH = 60.0
	PauseRowH  = 48.0
)

// PauseY returns the top of a pause menu of n items, centred on the screen.
func PauseY(n int) float64 { return (720 - (PauseHeadH + float64(n)*PauseRowH + 20)) / 2 }

// Pause is the small menu Esc opens over a match: Resume, Settings, How to
// play and, where the game offers them, Copy join link, Leave match and
// Quit game.
type Pause struct {
	items []PauseItem
	sel   int
}

// NewPause returns the pause menu with Resume selected; leave and quit say
// whether to offer those.
func NewPause(leave, quit bool) *Pause {
	p := &Pause{items: []PauseItem{PauseResume, PauseSettings, PauseHowTo}}
	if leave {
		p.items = append(p.items, PauseLeave)
	}
	if quit {
		p.items = append(p.items, PauseQuit)
	}
	return p
}

// OfferCopy adds "Copy join link" after "How to play", once: for a match
// with a link others join by.
func (p *Pause) OfferCopy() {
	if slices.Contains(p.items, PauseCopy) {
		return
	}
	i := slices.Index(p.items, PauseHowTo) + 1
	p.items = slices.Insert(p.items, i, PauseCopy)
}

// Items returns the menu's items, top to bottom.
func (p *Pause) Items() []PauseItem { return p.items }

// Selected returns the selected item's index.
func (p *Pause) Selected() int { return p.sel }

// ItemRect returns item i's row.
func (p *Pause) ItemRect(i int) Rect {
	return Rect{X: PauseX, Y: PauseY(len(p.items)) + PauseHeadH + float64(i)*PauseRowH, W: PauseW, H: PauseRowH}
}

// Update applies one frame of input: it returns the item chosen (Enter, or
// a click on it) and true, or PauseResume and true on Esc; false while the
// player has chosen nothing. A moving cursor selects the item under it.
func (p *Pause) Update(in Input, mouseMoved bool) (PauseItem, bool) {
	if in.Has(KeyEscape) {
		return PauseResume, true
	}
	switch {
	case in.Has(KeyUp), in.Has(KeyShiftTab):
		p.sel = (p.sel + len(p.items) - 1) % len(p.items)
	case in.Has(KeyDown), in.Has(KeyTab):
		p.sel = (p.sel + 1) % len(p.items)
	case in.Has(KeyEnter), in.Has(KeySpace):
		return p.items[p.sel], true
	}
	for i := range p.items {
		if !p.ItemRect(i).Contains(in.MouseX, in.MouseY) {
			continue
		}
		if mouseMoved || in.Click {
			p.sel = i
		}
		if in.Click {
			return p.items[i], true
		}
	}
	return PauseResume, false
}
