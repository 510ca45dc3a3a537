package settingsui

import (
	"testing"
)

func TestTextField(t *testing.T) {
	for _, tc := range []struct {
		name, start, typed string
		backspaces         int
		text, clean        string
	}{
		{"typed", "", "ada", 0, "ada", "ada"},
		{"start cleaned", "\x1b ada \n", "", 0, "ada", "ada"},
		{"trailing space kept while typing", "ada", " ", 0, "ada ", "ada"},
		{"backspace", "ada", "", 2, "a", "a"},
		{"backspace on empty", "", "", 3, "", ""},
		{"full at 24 bytes", "", "abcdefghijklmnopqrstuvwxyz", 0, "abcdefghijklmnopqrstuvwx", "abcdefghijklmnopqrstuvwx"},
		{"a 4-byte rune that does not fit", "abcdefghijklmnopqrstu", "🎯", 0, "abcdefghijklmnopqrstu", "abcdefghijklmnopqrstu"},
		{"control and bidi characters dropped", "", "a\x00\u0085\u202eb", 0, "ab", "ab"},
	} {
		f := NewTextField(tc.start)
		f.Type([]rune(tc.typed)...)
		for range tc.backspaces {
			f.Backspace()
		}
		if f.Text() != tc.text || f.Name() != tc.clean {
			t.Errorf("%s: text %q name %q, want %q %q", tc.name, f.Text(), f.Name(), tc.text, tc.clean)
		}
	}
}
