package protocol

import (
	"unicode"
	"unicode/utf8"
)

// Limits of a chat line.
const (
	// MaxChatRunes is the most characters (runes) a cleaned chat line has.
	MaxChatRunes = 120
	// MaxChatBytes is the most bytes a chat line has, cleaned or on the
	// wire. It lets 120 characters of most scripts through (3 bytes each in
	// UTF-8) and stops a line of 4-byte characters (emoji) at 90, so that a
	// chat event stays well under a third of a datagram.
	MaxChatBytes = 360
)

// CleanChat makes a chat line safe to show and relay:
//
//   - invalid UTF-8 is replaced, each run of bad bytes by one U+FFFD;
//   - tab, line feed, vertical tab, form feed, carriage return, NEL and the
//     Unicode line and paragraph separators become spaces;
//   - other control characters are removed: C0 (U+0000-U+001F), DEL, C1
//     (U+0080-U+009F), and the bidirectional embeddings, overrides and
//     isolates (U+202A-U+202E, U+2066-U+2069), which could make the line,
//     or the text drawn after it, read in a different order than it was
//     typed;
//   - white space is trimmed at both ends;
//   - the line is cut, at a character boundary, to MaxChatRunes characters
//     and MaxChatBytes bytes (a zero-width joiner left dangling at the cut is
//     dropped too).
//
// Everything else, emoji and every script included, is kept. CleanChat is
// idempotent, and returns s itself (without allocating) when s is already
// clean. Servers call it on every chat line a client sends.
func CleanChat(s string) string {
	var buf [MaxChatBytes]byte
	out := buf[:0]
	runes := 0
	cut := false
	badRun := false
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		if r == utf8.RuneError && w == 1 {
			if badRun {
				continue
			}
			badRun = true
		} else {
			badRun = false
		}
		switch {
		case r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r' ||
			r == 0x85 || r == 0x2028 || r == 0x2029:
			r = ' '
		case removed(r):
			continue
		}
		if len(out) == 0 && unicode.IsSpace(r) {
			continue
		}
		if runes == MaxChatRunes || len(out)+utf8.RuneLen(r) > MaxChatBytes {
			cut = true
			break
		}
		out = utf8.AppendRune(out, r)
		runes++
	}
	for len(out) > 0 {
		r, w := utf8.DecodeLastRune(out)
		if !unicode.IsSpace(r) && !(cut && r == 0x200D) {
			break
		}
		out = out[:len(out)-w]
	}
	if string(out) == s {
		return s
	}
	return string(out)
}

// removed reports whether CleanChat drops r.
func removed(r rune) bool {
	return r < 0x20 || r == 0x7F || (r >= 0x80 && r <= 0x9F) ||
		(r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}
