package arena

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestRecordPayloadsRoundTrip(t *testing.T) {
	clocks := []Clock{{1, 0, 9000}, {7, 54000, 63000}, {1<<32 - 1, 0, 1<<32 - 1}}
	for _, c := range clocks {
		got, err := ParseClock(AppendClock(nil, c))
		if err != nil || got != c {
			t.Errorf("clock %+v -> %+v %v", c, got, err)
		}
	}
	scores := []Score{{}, {Name: "ana", Kills: 3, Deaths: 1, Score: 5}, {Name: strings.Repeat("é", 12), Kills: 1<<32 - 1, Deaths: 1 << 31, Score: 128}}
	for _, s := range scores {
		got, err := ParseScore(AppendScore(nil, s))
		if err != nil || got != s {
			t.Errorf("score %+v -> %+v %v", s, got, err)
		}
	}
	pickups := []Pickup{{0, 0, PickupHealth}, {WorldSize, WorldSize, PickupHealth}, {1234, 77, PickupHealth}}
	for _, p := range pickups {
		b := AppendPickup(nil, p)
		got, err := ParsePickup(b)
		if err != nil || got != p || len(b) != 5 {
			t.Errorf("pickup %+v -> %+v %v (%d bytes)", p, got, err, len(b))
		}
	}
	if b := AppendScore(nil, Score{Name: strings.Repeat("x", 30)}); b[0] != MaxNameBytes {
		t.Fatalf("a long name is not cut: length byte %d", b[0])
	}
	if got := (Clock{1, 100, 200}).Remaining(150); got != 50 {
		t.Fatalf("Remaining = %d", got)
	}
	if got := (Clock{1, 100, 200}).Remaining(250); got != 0 {
		t.Fatalf("Remaining after the end = %d", got)
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
		{"pickup outside the world", pickupErr, AppendPickup(nil, Pickup{X: WorldSize + 1})},
		{"pickup unknown kind", pickupErr, AppendPickup(nil, Pickup{X: 5, Y: 5, Kind: 9})},
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

type rec struct {
	id      uint32
	gen     uint16
	payload string
	deleted bool
}

func records(fn func(RecordFunc)) []rec {
	var out []rec
	fn(func(id uint32, gen uint16, p []byte, deleted bool) {
		out = append(out, rec{id, gen, string(p), deleted})
	})
	return out
}

func TestChangedAndAllRecords(t *testing.T) {
	w := newBare(t, Config{Seed: 9, Pickups: 3, MaxPlayers: 4})
	w.AddPlayer(5)
	w.AddPlayer(6)
	w.SetName(6, "bob")
	first := records(w.ChangedRecords)
	want := []rec{
		{RecordClock, 0, string(AppendClock(nil, Clock{1, 0, DefaultRoundTicks})), false},
		{RecordScore | 5, 0, string(AppendScore(nil, Score{})), false},
		{RecordScore | 6, 0, string(AppendScore(nil, Score{Name: "bob"})), false},
	}
	for k := range 3 {
		pk := w.pickups[k]
		want = append(want, rec{RecordPickup | uint32(k), 0, string(AppendPickup(nil, Pickup{X: uint16(pk.x), Y: uint16(pk.y)})), false})
	}
	if !equalRecs(first, want) {
		t.Fatalf("first records\n%v\nwant\n%v", first, want)
	}
	if again := records(w.ChangedRecords); len(again) != 0 {
		t.Fatalf("nothing changed, yet %v", again)
	}
	if all := records(w.AllRecords); !equalRecs(all, want) {
		t.Fatalf("all records\n%v\nwant\n%v", all, want)
	}
	// Leaving deletes; a name change republishes; names are cut to 24
	// bytes at a character boundary.
	w.RemovePlayer(5)
	w.SetName(6, strings.Repeat("ü", 13)) // 26 bytes
	got := records(w.ChangedRecords)
	want = []rec{
		{RecordScore | 5, 0, "", true},
		{RecordScore | 6, 0, string(AppendScore(nil, Score{Name: strings.Repeat("ü", 12)})), false},
	}
	if !equalRecs(got, want) {
		t.Fatalf("after a leave and a rename\n%v\nwant\n%v", got, want)
	}
	if info, _ := w.Player(6); info.Name != strings.Repeat("ü", 12) {
		t.Fatalf("name %q", info.Name)
	}
	w.SetName(6, "a\xffb") // invalid UTF-8 is dropped
	if info, _ := w.Player(6); info.Name != "ab" {
		t.Fatalf("name %q", info.Name)
	}
	w.SetName(99, "nobody") // unknown: nothing
	if n := len(records(w.ChangedRecords)); n != 1 {
		t.Fatalf("%d records changed, want player 6's", n)
	}
	for _, r := range records(w.AllRecords) {
		if r.deleted {
			t.Fatalf("AllRecords reports a deletion %v", r)
		}
		kind, _ := RecordKind(r.id)
		var err error
		switch kind {
		case RecordClock:
			_, err = ParseClock([]byte(r.payload))
		case RecordScore:
			_, err = ParseScore([]byte(r.payload))
		case RecordPickup:
			_, err = ParsePickup([]byte(r.payload))
		default:
			t.Fatalf("record id %x of no kind", r.id)
		}
		if err != nil {
			t.Fatalf("record %x does not parse: %v", r.id, err)
		}
	}
}

func equalRecs(a, b []rec) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func FuzzParseScore(f *testing.F) {
	f.Add(AppendScore(nil, Score{Name: "ana", Kills: 3, Deaths: 1, Score: 5}))
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
	f.Add(AppendPickup(nil, Pickup{X: 100, Y: 4096}))
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
	f.Add(AppendClock(nil, Clock{Round: 3, Start: 18000, End: 27000}))
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
