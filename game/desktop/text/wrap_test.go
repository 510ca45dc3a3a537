package text

import (
	"slices"
	"testing"
)

func TestWrap(t *testing.T) {
	f := tiny(t) // 'a' advances 10, 'b' 7.5, ' ' 4
	for _, tc := range []struct {
		s    string
		w    float64
		want []string
	}{
		{"aa bb", 100, []string{"aa bb"}},
		{"aa bb", 34, []string{"aa", "bb"}}, // 20 + 4 + 15 = 39 px
		{"aa aa aa", 44, []string{"aa aa", "aa"}},
		{"aa aa aa", 20, []string{"aa", "aa", "aa"}},
		{"aaaaa b", 25, []string{"aa", "aa", "a b"}}, // a long word cut
		{"aa\naa aa", 100, []string{"aa", "aa aa"}},
		{"", 100, []string{""}},
		{"aaa", 3, []string{"a", "a", "a"}}, // narrower than a glyph: a rune a line
	} {
		got := Wrap(tc.s, f, tc.w)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Wrap(%q, %v) = %q, want %q", tc.s, tc.w, got, tc.want)
		}
		for _, l := range got {
			if Advance(l, f) > tc.w && len([]rune(l)) > 1 {
				t.Errorf("Wrap(%q, %v): line %q is %v px wide", tc.s, tc.w, l, Advance(l, f))
			}
		}
	}
}
