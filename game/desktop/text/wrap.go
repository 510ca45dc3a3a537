package text

import (
	"strings"

	"github.com/sightline-game/sightline/assets/glyphs"
)

// Wrap breaks s into lines no wider than w pixels in f: at spaces where it
// can, and inside a word (a long link, say) only where one word alone is
// wider than w. Line breaks in s are kept. Every line has at least one
// rune, so a w narrower than a glyph still ends.
func Wrap(s string, f *glyphs.Face, w float64) []string {
	var lines []string
	for para := range strings.SplitSeq(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			try := word
			if line != "" {
				try = line + " " + word
			}
			if Advance(try, f) <= w {
				line = try
				continue
			}
			if line != "" {
				lines = append(lines, line)
			}
			// A word wider than the line alone is cut where it must be.
			for len([]rune(word)) > 1 && Advance(word, f) > w {
				r := []rune(word)
				n := 1
				for n < len(r) && Advance(string(r[:n+1]), f) <= w {
					n++
				}
				lines = append(lines, string(r[:n]))
				word = string(r[n:])
			}
			line = word
		}
		lines = append(lines, line)
	}
	return lines
}
