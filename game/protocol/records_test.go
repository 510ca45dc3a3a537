package protocol

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
)

func TestRecordPayloadsRoundTrip(t *testing.T) {
	clocks := []arena.Clock{{Round: 1, Start: 0, End: 9000, Next: 9150}, {Round: 7, Start: 54000, End: 63000, Next: 63000}, {Round: 1<<32 - 1, Start: 0, End: 1<<32 - 1, Next: 1<<32 - 1}}
	for _, c := range clocks {
		got, err := ParseClock(AppendClock(nil, c))
		if err != nil || got != c {
			t.Errorf("clock %+v -> %+v %v", c, got, err)
		}
	}
	scores := []arena.Score{{}, {Name: "ana", Kills: 3, Deaths: 1, Score: 5, Shots: 40, Hits: 12}, {Name: strings.Repeat("é", 12), Kills: 1<<32 - 1, Deaths: 1 << 31, Score: 128, Shots: 1<<32 - 1, Hits: 1<<32 - 1}}
	for _, s := range scores {
		got, err := ParseScore(AppendScore(nil, s))
		if err != nil || got != s {
			t.Errorf("score %+v -> %+v %v", s, got, err)
		}
	}
	pickups := []arena.Pickup{{X: 0, Y: 0, Kind: arena.PickupHealth}, {X: WorldSize, Y: WorldSize, Kind: arena.PickupSpread}, {X: 1234, Y: 77, Kind: arena.PickupPower}}
	for _, p := range pickups {
		b := AppendPickup(nil, p)
		got, err := ParsePickup(b)
		if err != nil || got != p || len(b) != 5 {
			t.Errorf("pickup %+v -> %+v %v (%d bytes)", p, got, err, len(b))
		}
	}
	loadouts := []arena.Loadout{{}, {Weapon: arena.WeaponSpread, Shots: arena.SpreadShots}, {Weapon: arena.WeaponSpread, Shots: 1, PowerEnd: 9300}, {PowerEnd: 1<<32 - 1}}
	for _, l := range loadouts {
		got, err := ParseLoadout(AppendLoadout(nil, l))
		if err != nil || got != l {
			t.Errorf("loadout %+v -> %+v %v", l, got, err)
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
		{"clock without next (version 2)", clockErr, []byte{1, 0, 5}},
		{"clock round 0", clockErr, []byte{0, 0, 5, 5}},
		{"clock ends before it starts", clockErr, []byte{1, 9, 5, 9}},
		{"clock ends when it starts", clockErr, []byte{1, 5, 5, 5}},
		{"clock next round before the end", clockErr, []byte{1, 0, 5, 4}},
		{"clock varint not shortest", clockErr, []byte{1, 0x80, 0x00, 5, 5}},
		{"clock value above 32 bits", clockErr, []byte{1, 0, 5, 0x80, 0x80, 0x80, 0x80, 0x10}},
		{"clock varint overflows 64 bits", clockErr, append([]byte{1, 0}, bytes.Repeat([]byte{0xff}, 11)...)},
		{"clock trailing byte", clockErr, []byte{1, 0, 5, 5, 0}},
		{"score empty", scoreErr, nil},
		{"score name too long", scoreErr, append([]byte{25}, bytes.Repeat([]byte{'a'}, 25+5)...)},
		{"score name cut", scoreErr, []byte{5, 'a', 'b'}},
		{"score name not UTF-8", scoreErr, []byte{2, 0xc3, 0x28, 0, 0, 0, 0, 0}},
		{"score missing score", scoreErr, []byte{0, 1, 1}},
		{"score without accuracy (version 2)", scoreErr, []byte{0, 1, 1, 1}},
		{"score more hits than shots", scoreErr, []byte{0, 1, 1, 1, 3, 4}},
		{"score trailing byte", scoreErr, []byte{0, 1, 1, 1, 0, 0, 9}},
		{"score length varint not shortest", scoreErr, []byte{0x80, 0, 0, 0, 0, 0, 0}},
		{"pickup short", pickupErr, []byte{1, 2, 3, 4}},
		{"pickup long", pickupErr, []byte{1, 2, 3, 4, 0, 0}},
		{"pickup outside the world", pickupErr, AppendPickup(nil, arena.Pickup{X: WorldSize + 1})},
		{"pickup unknown kind", pickupErr, AppendPickup(nil, arena.Pickup{X: 5, Y: 5, Kind: 9})},
		{"pickup kind 3", pickupErr, AppendPickup(nil, arena.Pickup{X: 5, Y: 5, Kind: arena.PickupPower + 1})},
		{"loadout empty", loadoutErr, nil},
		{"loadout cut", loadoutErr, []byte{0, 0}},
		{"loadout bite", loadoutErr, []byte{byte(arena.WeaponBite), 0, 0}},
		{"loadout unknown weapon", loadoutErr, []byte{9, 0, 0}},
		{"loadout gun with spread shots", loadoutErr, []byte{0, 3, 0}},
		{"loadout spread without shots", loadoutErr, []byte{2, 0, 0}},
		{"loadout too many spread shots", loadoutErr, []byte{2, arena.SpreadShots + 1, 0}},
		{"loadout power-end above 32 bits", loadoutErr, []byte{0, 0, 0x80, 0x80, 0x80, 0x80, 0x10}},
		{"loadout varint not shortest", loadoutErr, []byte{0, 0x80, 0x00, 0}},
		{"loadout trailing byte", loadoutErr, []byte{0, 0, 0, 0}},
	}
	for _, c := range cases {
		if err := c.parse(c.p); !errors.Is(err, ErrRecord) {
			t.Errorf("%s (%x): %v, want ErrRecord", c.name, c.p, err)
		}
	}
}

func clockErr(p []byte) error   { _, err := ParseClock(p); return err }
func scoreErr(p []byte) error   { _, err := ParseScore(p); return err }
func pickupErr(p []byte) error  { _, err := ParsePickup(p); return err }
func loadoutErr(p []byte) error { _, err := ParseLoadout(p); return err }

func FuzzParseLoadout(f *testing.F) {
	f.Add(AppendLoadout(nil, arena.Loadout{Weapon: arena.WeaponSpread, Shots: 7, PowerEnd: 9300}))
	f.Add(AppendLoadout(nil, arena.Loadout{}))
	f.Add([]byte{2, 0, 0})
	f.Fuzz(func(t *testing.T, p []byte) {
		l, err := ParseLoadout(p)
		if err != nil {
			if !errors.Is(err, ErrRecord) {
				t.Fatalf("error %v is not ErrRecord", err)
			}
			return
		}
		if b := AppendLoadout(nil, l); !bytes.Equal(b, p) || l.Shots > arena.SpreadShots || (l.Weapon == arena.WeaponSpread) != (l.Shots > 0) {
			t.Fatalf("%x parses as %+v, which encodes as %x", p, l, b)
		}
	})
}

func FuzzParseScore(f *testing.F) {
	f.Add(AppendScore(nil, arena.Score{Name: "ana", Kills: 3, Deaths: 1, Score: 5, Shots: 9, Hits: 4}))
	f.Add([]byte{0, 0, 0, 0, 0, 0})
	f.Add([]byte{24})
	f.Fuzz(func(t *testing.T, p []byte) {
		s, err := ParseScore(p)
		if err != nil {
			if !errors.Is(err, ErrRecord) {
				t.Fatalf("error %v is not ErrRecord", err)
			}
			return
		}
		if b := AppendScore(nil, s); !bytes.Equal(b, p) || s.Hits > s.Shots {
			t.Fatalf("%x parses as %+v, which encodes as %x", p, s, b)
		}
	})
}

func FuzzParsePickup(f *testing.F) {
	f.Add(AppendPickup(nil, arena.Pickup{X: 100, Y: 4096}))
	f.Add(AppendPickup(nil, arena.Pickup{X: 7, Y: 9, Kind: arena.PickupPower}))
	f.Add([]byte{0xff, 0xff, 0, 0, 0})
	f.Fuzz(func(t *testing.T, p []byte) {
		pk, err := ParsePickup(p)
		if err != nil {
			if !errors.Is(err, ErrRecord) {
				t.Fatalf("error %v is not ErrRecord", err)
			}
			return
		}
		if b := AppendPickup(nil, pk); !bytes.Equal(b, p) || pk.X > WorldSize || pk.Y > WorldSize || pk.Kind > arena.PickupPower {
			t.Fatalf("%x parses as %+v, which encodes as %x", p, pk, b)
		}
	})
}

func FuzzParseClock(f *testing.F) {
	f.Add(AppendClock(nil, arena.Clock{Round: 3, Start: 18300, End: 27300, Next: 27450}))
	f.Add([]byte{1, 0x80, 0x01, 0xff, 0x01, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, p []byte) {
		c, err := ParseClock(p)
		if err != nil {
			if !errors.Is(err, ErrRecord) {
				t.Fatalf("error %v is not ErrRecord", err)
			}
			return
		}
		if b := AppendClock(nil, c); !bytes.Equal(b, p) || c.Round == 0 || c.End <= c.Start || c.Next < c.End {
			t.Fatalf("%x parses as %+v, which encodes as %x", p, c, b)
		}
	})
}
