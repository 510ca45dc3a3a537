package protocol

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
)

func TestRecordPayloadsRoundTrip(t *testing.T) {
	clocks := []arena.Clock{{Round: 1, Start: 0, End: 9000}, {Round: 7, Start: 54000, End: 63000}, {Round: 1<<32 - 1, Start: 0, End: 1<<32 - 1}}
	for _, c := range clocks {
		got, err := ParseClock(AppendClock(nil, c))
		if err != nil || got != c {
			t.Errorf("clock %+v -> %+v %v", c, got, err)
		}
	}
	scores := []arena.Score{{}, {Name: "ana", Kills: 3, Deaths: 1, Score: 5}, {Name: strings.Repeat("é", 12), Kills: 1<<32 - 1, Deaths: 1 << 31, Score: 128}}
	for _, s := range scores {
		got, err := ParseScore(AppendScore(nil, s))
		if err != nil || got != s {
			t.Errorf("score %+v -> %+v %v", s, got, err)
		}
	}
	pickups := []arena.Pickup{{X: 0, Y: 0, Kind: arena.PickupHealth}, {X: WorldSize, Y: WorldSize, Kind: arena.PickupHealth}, {X: 1234, Y: 77, Kind: arena.PickupHealth}}
	for _, p := range pickups {
		b := AppendPickup(nil, p)
		got, err := ParsePickup(b)
		if err != nil || got != p || len(b) != 5 {
			t.Errorf("pickup %+v -> %+v %v (%d bytes)", p, got, err, len(b))
		}
	}
	if b := AppendScore(nil, arena.Score{Name: strings.Repeat("x", 30)}); b[0] != arena.MaxNameBytes {
		t.Fatalf("a long name is not cut: length byte %d", b[0])
	}
}

func TestRecordPayloadsRejectBadInput(t *testing.T) {
	cases := []struct {
		name  string
		parse func([]byte) error
		p     []byte
	}{
		{"clock empty", clockErr, nil},
		{"clock cut", clockErr, []byte{1, 0}},
		{"clock round 0", clockErr, []byte{0, 0, 5}},
		{"clock ends before it starts", clockErr, []byte{1, 9, 5}},
		{"clock ends when it starts", clockErr, []byte{1, 5, 5}},
		{"clock varint not shortest", clockErr, []byte{1, 0x80, 0x00, 5}},
		{"clock value above 32 bits", clockErr, []byte{1, 0, 0x80, 0x80, 0x80, 0x80, 0x10}},
		{"clock varint overflows 64 bits", clockErr, append([]byte{1, 0}, bytes.Repeat([]byte{0xff}, 11)...)},
		{"clock trailing byte", clockErr, []byte{1, 0, 5, 0}},
		{"score empty", scoreErr, nil},
		{"score name too long", scoreErr, append([]byte{25}, bytes.Repeat([]byte{'a'}, 25+3)...)},
		{"score name cut", scoreErr, []byte{5, 'a', 'b'}},
		{"score name not UTF-8", scoreErr, []byte{2, 0xc3, 0x28, 0, 0, 0}},
		{"score missing score", scoreErr, []byte{0, 1, 1}},
		{"score trailing byte", scoreErr, []byte{0, 1, 1, 1, 9}},
		{"score length varint not shortest", scoreErr, []byte{0x80, 0, 0, 0, 0}},
		{"pickup short", pickupErr, []byte{1, 2, 3, 4}},
		{"pickup long", pickupErr, []byte{1, 2, 3, 4, 0, 0}},
		{"pickup outside the world", pickupErr, AppendPickup(nil, arena.Pickup{X: WorldSize + 1})},
		{"pickup unknown kind", pickupErr, AppendPickup(nil, arena.Pickup{X: 5, Y: 5, Kind: 9})},
	}
	for _, c := range cases {
		if err := c.parse(c.p); !errors.Is(err, ErrRecord) {
			t.Errorf("%s (%x): %v, want ErrRecord", c.name, c.p, err)
		}
	}
}

func clockErr(p []byte) error  { _, err := ParseClock(p); return err }
func scoreErr(p []byte) error  { _, err := ParseScore(p); return err }
func pickupErr(p []byte) error { _, err := ParsePickup(p); return err }

func FuzzParseScore(f *testing.F) {
	f.Add(AppendScore(nil, arena.Score{Name: "ana", Kills: 3, Deaths: 1, Score: 5}))
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{24})
	f.Fuzz(func(t *testing.T, p []byte) {
		s, err := ParseScore(p)
		if err != nil {
			if !errors.Is(err, ErrRecord) {
				t.Fatalf("error %v is not ErrRecord", err)
			}
			return
		}
		if b := AppendScore(nil, s); !bytes.Equal(b, p) {
			t.Fatalf("%x parses as %+v, which encodes as %x", p, s, b)
		}
	})
}

func FuzzParsePickup(f *testing.F) {
	f.Add(AppendPickup(nil, arena.Pickup{X: 100, Y: 4096}))
	f.Add([]byte{0xff, 0xff, 0, 0, 0})
	f.Fuzz(func(t *testing.T, p []byte) {
		pk, err := ParsePickup(p)
		if err != nil {
			if !errors.Is(err, ErrRecord) {
				t.Fatalf("error %v is not ErrRecord", err)
			}
			return
		}
		if b := AppendPickup(nil, pk); !bytes.Equal(b, p) || pk.X > WorldSize || pk.Y > WorldSize {
			t.Fatalf("%x parses as %+v, which encodes as %x", p, pk, b)
		}
	})
}

func FuzzParseClock(f *testing.F) {
	f.Add(AppendClock(nil, arena.Clock{Round: 3, Start: 18000, End: 27000}))
	f.Add([]byte{1, 0x80, 0x01, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, p []byte) {
		c, err := ParseClock(p)
		if err != nil {
			if !errors.Is(err, ErrRecord) {
				t.Fatalf("error %v is not ErrRecord", err)
			}
			return
		}
		if b := AppendClock(nil, c); !bytes.Equal(b, p) || c.Round == 0 || c.End <= c.Start {
			t.Fatalf("%x parses as %+v, which encodes as %x", p, c, b)
		}
	})
}
