package events_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sightline-game/sightline/netcode/events"
)

func TestCleanChat(t *testing.T) {
	long := strings.Repeat("abcdefghij", 20)        // 200 ASCII runes
	emoji := strings.Repeat("🎉", 100)               // 100 runes, 400 bytes
	family := strings.Repeat("👨\u200d👩\u200d👧", 30) // a ZWJ sequence, cut somewhere inside
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain", "hello world", "hello world"},
		{"emoji kept", "gg 🎉👍🏽", "gg 🎉👍🏽"},
		{"scripts kept", "привет 你好 مرحبا", "привет 你好 مرحبا"},
		{"trim", "  \t hi \u3000 ", "hi"},
		{"newlines become spaces", "one\ntwo\r\nthree\u2028four", "one two  three four"},
		{"C0 removed", "a\x00b\x07c\x1bd", "abcd"},
		{"DEL removed", "a\x7fb", "ab"},
		{"C1 removed", "a\u0080b\u009fc", "abc"},
		{"bidi override removed", "user\u202egnp.exe", "usergnp.exe"},
		{"all bidi embeddings and overrides", "\u202a1\u202b2\u202c3\u202d4\u202e5", "12345"},
		{"bidi isolates removed", "\u2066a\u2067b\u2068c\u2069", "abc"},
		{"invalid UTF-8 replaced", "a\xffb", "a\uFFFDb"},
		{"run of invalid bytes is one replacement", "a\xff\xfe\xfdb", "a\uFFFDb"},
		{"truncated sequence", "abc\xe2\x82", "abc\uFFFD"},
		{"only controls", "\x00\x01\u202e", ""},
		{"empty", "", ""},
		{"rune cap", long, long[:events.MaxChatRunes]},
		{"byte cap", emoji, strings.Repeat("🎉", events.MaxChatBytes/4)},
		{"cut trims space", strings.Repeat("a", 119) + " b", strings.Repeat("a", 119)},
		{"leading space not counted", "   " + long, long[:events.MaxChatRunes]},
	} {
		got := events.CleanChat(tc.in)
		if got != tc.want {
			t.Errorf("%s: CleanChat(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
	got := events.CleanChat(family)
	if strings.HasSuffix(got, "\u200d") || utf8.RuneCountInString(got) > events.MaxChatRunes || !strings.HasPrefix(family, got) {
		t.Errorf("ZWJ sequence cut badly: %q", got)
	}
}
