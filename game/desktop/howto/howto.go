// Package howto is the "how to play" card: what it says (the controls, what
// hurts the player and how score is earned, with the arena's own numbers)
// and when a match shows it: at the first match a player plays, until the
// player dismisses it with any key, click or touch, which the settings then
// remember (settings.Settings.HowToPlaySeen). The pause menu shows it again.
// It draws nothing and needs no display; game/desktop draws the card.
package howto

import (
	"fmt"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/desktop/settingsui"
)

// Section is a heading and its lines.
type Section struct {
	Title string
	Lines []string
}

// Title is the card's heading; Footer its last line, how to dismiss it.
const (
	Title  = "HOW TO PLAY"
	Footer = "press any key, click or touch to play · Esc › How to play shows this again"
)

// Sections returns what the card says, the numbers taken from the arena's
// rules (game/arena), so that the card says what the server does.
func Sections() []Section {
	return []Section{
		{"CONTROLS", []string{
			"WASD or arrow keys move · the mouse aims · left button or Space fires",
			"Shift or right button dashes · Tab scoreboard · Enter chat · Esc pause · F3 network · M mute",
			"Touch: the left stick moves, the right stick aims and fires; the DASH, SCORES, CHAT and MENU buttons",
		}},
		{"WHAT HURTS YOU", []string{
			fmt.Sprintf("Other players' shots: %d health each (the spread gun's pellets %d; doubled by a power-up)", arena.ProjectileDamage, arena.SpreadDamage),
			fmt.Sprintf("The creatures bite when they touch you: %d health, at most once a second each", arena.CreatureBiteDamage),
			fmt.Sprintf("You have %d health; health packs give %d back. After a death you are back in %d s, shielded %d s or until you fire",
				arena.PlayerHealth, arena.PickupHeal, arena.RespawnTicks/arena.TickRate, arena.SpawnShieldTicks/arena.TickRate),
		}},
		{"SCORE", []string{
			"1 point for each player your shots kill, 1 point for each creature your shots kill",
			"When the round clock runs out, the highest score wins the round (a tie: fewer deaths)",
		}},
	}
}

// MinShow is how long the card stays before a press can dismiss it: a key
// pressed as the match appears (still moving from the menu) does not throw
// it away unread.
const MinShow = time.Second

// Card is the card's state in one match. It shows once the match is on
// screen, if the player has not dismissed it before (or it was asked
// for), until a press dismisses it.
type Card struct {
	prefs   *settingsui.Prefs
	shown   bool
	since   time.Time // when it went on screen (zero: not yet)
	saveErr error
}

// Open returns the card of a match the player starts with settings p: shown
// unless the player has dismissed it before; force shows it anyway (the
// -how-to-play flag). It may be nil for a match nobody reads (a bot plays):
// a nil card is never shown.
func Open(p *settingsui.Prefs, force bool) *Card {
	return &Card{prefs: p, shown: force || !p.Settings().HowToPlaySeen}
}

// Shown reports whether the card is on screen.
func (c *Card) Shown() bool { return c != nil && c.shown }

// Show puts the card on screen again (the pause menu's "How to play").
func (c *Card) Show() {
	if c != nil {
		c.shown, c.since = true, time.Time{}
	}
}

// Update runs once a frame while the match is on screen: pressed says
// whether a key, mouse button or finger went down this frame. A press
// MinShow after the card appeared dismisses it, and the settings remember
// that it was seen. It reports whether the card is still shown.
func (c *Card) Update(now time.Time, pressed bool) bool {
	if !c.Shown() {
		return false
	}
	if c.since.IsZero() {
		c.since = now
	}
	if !pressed || now.Sub(c.since) < MinShow {
		return true
	}
	c.shown = false
	if s := c.prefs.Settings(); !s.HowToPlaySeen {
		s.HowToPlaySeen = true
		c.saveErr = c.prefs.Set(s)
	}
	return false
}

// SaveErr returns why the dismissal could not be saved, if it could not
// (the card then shows again at the next run's first match).
func (c *Card) SaveErr() error {
	if c == nil {
		return nil
	}
	return c.saveErr
}
