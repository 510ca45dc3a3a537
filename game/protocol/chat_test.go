package protocol_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sightline-game/sightline/game/protocol"
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
		{"rune cap", long, long[:protocol.MaxChatRunes]},
		{"byte cap", emoji, strings.Repeat("🎉", protocol.MaxChatBytes/4)},
		{"cut trims space", strings.Repeat("a", 119) + " b", strings.Repeat("a", 119)},
		{"leading space not counted", "   " + long, long[:protocol.MaxChatRunes]},
	} {
		got := protocol.CleanChat(tc.in)
		if got != tc.want {
			t.Errorf("%s: CleanChat(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
	got := protocol.CleanChat(family)
	if strings.HasSuffix(got, "\u200d") || utf8.RuneCountInString(got) > protocol.MaxChatRunes || !strings.HasPrefix(family, got) {
		t.Errorf("ZWJ sequence cut badly: %q", got)
	}
}

// FuzzCleanChat checks CleanChat's promises on any input.
func FuzzCleanChat(f *testing.F) {
	for _, s := range []string{"hello", "  a\tb\n", "\u202eevil", "\xff\xfe", "👨\u200d👩\u200d👧", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := protocol.CleanChat(s)
		if !utf8.ValidString(c) || len(c) > protocol.MaxChatBytes || utf8.RuneCountInString(c) > protocol.MaxChatRunes {
			t.Fatalf("CleanChat(%q) = %q: invalid or too long", s, c)
		}
		for _, r := range c {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) ||
				(r >= 0x2066 && r <= 0x2069) || r == 0x2028 || r == 0x2029 {
				t.Fatalf("CleanChat(%q) = %q keeps %U", s, c, r)
			}
		}
		if again := protocol.CleanChat(c); again != c {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, c, again)
		}
	})
}

func ExampleCleanChat() {
	fmt.Printf("%q\n", protocol.CleanChat("  gg\u202e wp\x07\r\nrematch? 🎉 "))
	fmt.Printf("%+q\n", protocol.CleanChat("bad\xff\xfebytes"))
	// Output:
	// "gg wp  rematch? 🎉"
	// "bad\ufffdbytes"
}

func TestCleanChatOfACleanLineDoesNotAllocate(t *testing.T) {
	clean := "a perfectly ordinary line 🎉"
	if n := testing.AllocsPerRun(100, func() { protocol.CleanChat(clean) }); n != 0 {
		t.Fatalf("CleanChat of a clean line: %v allocations", n)
	}
}

func BenchmarkCleanChat(b *testing.B) {
	for name, s := range map[string]string{
		"clean": "good game everyone, rematch? 🎉",
		"dirty": "\u202egood\x00 game\r\neveryone\xff\xfe " + string(bytes.Repeat([]byte("spam "), 60)),
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				protocol.CleanChat(s)
			}
		})
	}
}
