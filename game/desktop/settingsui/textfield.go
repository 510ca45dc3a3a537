package settingsui

import (
	"unicode/utf8"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/settings"
)

// TextField is a one-line field for a player's name: typing appends,
// Backspace deletes the last character. It takes no control characters
// and nothing past arena.MaxNameBytes bytes, so what is shown is what the
// server will call the player (but for spaces at the ends, which Name
// trims).
type TextField struct {
	text []rune
}

// NewTextField returns a field holding s (cleaned as a name).
func NewTextField(s string) TextField {
	return TextField{text: []rune(settings.CleanName(s))}
}

// Text returns the field as typed.
func (t *TextField) Text() string { return string(t.text) }

// Name returns the field as a name: cleaned (ends trimmed).
func (t *TextField) Name() string { return settings.CleanName(string(t.text)) }

// Type appends rs, dropping control characters and what would not fit;
// it reports whether the field changed.
func (t *TextField) Type(rs ...rune) bool {
	changed := false
	n := len(string(t.text))
	for _, r := range rs {
		if r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) ||
			(r >= 0x2066 && r <= 0x2069) || r == utf8.RuneError {
			continue
		}
		if n+utf8.RuneLen(r) > arena.MaxNameBytes {
			continue
		}
		t.text = append(t.text, r)
		n += utf8.RuneLen(r)
		changed = true
	}
	return changed
}

// Backspace deletes the last character; it reports whether there was one.
func (t *TextField) Backspace() bool {
	if len(t.text) == 0 {
		return false
	}
	t.text = t.text[:len(t.text)-1]
	return true
}
