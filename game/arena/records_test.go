package arena

import (
	"slices"
	"strings"
	"testing"
)

func records(fn func(func(Record))) []Record {
	var out []Record
	fn(func(r Record) { out = append(out, r) })
	return out
}

func TestChangedAndAllRecords(t *testing.T) {
	w := newBare(t, Config{Seed: 9, Pickups: 3, MaxPlayers: 4})
	w.AddPlayer(5)
	w.AddPlayer(6)
	w.SetName(6, "bob")
	first := records(w.ChangedRecords)
	want := []Record{
		{Kind: RecordClock, Clock: Clock{1, 0, DefaultRoundTicks, DefaultRoundTicks + DefaultIntermissionTicks}},
		{Kind: RecordScore, Index: 5},
		{Kind: RecordScore, Index: 6, Score: Score{Name: "bob"}},
		{Kind: RecordLoadout, Index: 5},
		{Kind: RecordLoadout, Index: 6},
	}
	for k := range 3 {
		pk := w.pickups[k]
		if pk.x != float64(uint16(pk.x)) || pk.y != float64(uint16(pk.y)) {
			t.Fatalf("pack %d at (%v, %v), not on whole px", k, pk.x, pk.y)
		}
		want = append(want, Record{Kind: RecordPickup, Index: uint32(k), Pickup: Pickup{X: uint16(pk.x), Y: uint16(pk.y), Kind: PickupHealth}})
	}
	if !slices.Equal(first, want) {
		t.Fatalf("first records\n%v\nwant\n%v", first, want)
	}
	if again := records(w.ChangedRecords); len(again) != 0 {
		t.Fatalf("nothing changed, yet %v", again)
	}
	if all := records(w.AllRecords); !slices.Equal(all, want) {
		t.Fatalf("all records\n%v\nwant\n%v", all, want)
	}
	// Leaving deletes; a name change republishes; names are cut to 24
	// bytes at a character boundary.
	w.RemovePlayer(5)
	w.SetName(6, strings.Repeat("ü", 13)) // 26 bytes
	got := records(w.ChangedRecords)
	want = []Record{
		{Kind: RecordScore, Index: 5, Deleted: true},
		{Kind: RecordLoadout, Index: 5, Deleted: true},
		{Kind: RecordScore, Index: 6, Score: Score{Name: strings.Repeat("ü", 12)}},
	}
	if !slices.Equal(got, want) {
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
	if got := records(w.ChangedRecords); len(got) != 1 || got[0].Score.Name != "ab" {
		t.Fatalf("records changed: %v, want player 6's", got)
	}
	for _, r := range records(w.AllRecords) {
		if r.Deleted || r.Kind < RecordClock || r.Kind > RecordLoadout {
			t.Fatalf("AllRecords reports %+v", r)
		}
	}
}

func TestClockRemaining(t *testing.T) {
	c := Clock{Round: 1, Start: 100, End: 200, Next: 350}
	for _, tc := range []struct {
		tick, want, next uint32
		between          bool
	}{
		{100, 100, 250, false}, {150, 50, 200, false}, {199, 1, 151, false},
		{200, 0, 150, true}, {250, 0, 100, true}, {349, 0, 1, true}, {350, 0, 0, false}, {400, 0, 0, false},
	} {
		if got, next, between := c.Remaining(tc.tick), c.UntilNext(tc.tick), c.Intermission(tc.tick); got != tc.want || next != tc.next || between != tc.between {
			t.Errorf("tick %d: Remaining %d, UntilNext %d, Intermission %v; want %d, %d, %v", tc.tick, got, next, between, tc.want, tc.next, tc.between)
		}
	}
}

// A shot alone does not republish the score record; its accuracy goes out
// with the record's next change, and AllRecords tells a newcomer what the
// others were last told.
func TestAccuracyPublished(t *testing.T) {
	w := newBare(t, Config{Seed: 4, MaxPlayers: 2})
	w.AddPlayer(1)
	place(t, w, 1, mid, mid)
	w.ChangedRecords(func(Record) {})
	(seqs{}).apply(w, 1, Input{Buttons: ButtonFire})
	w.Step()
	if got := records(w.ChangedRecords); len(got) != 0 {
		t.Fatalf("a shot republished %+v", got)
	}
	score := func(rs []Record) Score {
		for _, r := range rs {
			if r.Kind == RecordScore {
				return r.Score
			}
		}
		return Score{Name: "none"}
	}
	if s := score(records(w.AllRecords)); s != (Score{}) {
		t.Fatalf("AllRecords before the next change: %+v", s)
	}
	w.SetName(1, "ann")
	if s := score(records(w.ChangedRecords)); s != (Score{Name: "ann", Shots: 1}) {
		t.Fatalf("the next change: %+v", s)
	}
	if s := score(records(w.AllRecords)); s != (Score{Name: "ann", Shots: 1}) {
		t.Fatalf("AllRecords after it: %+v", s)
	}
}
