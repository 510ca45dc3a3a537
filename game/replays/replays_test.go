package replays_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/replays"
)

// Create keeps the newest Keep replays and List gives them newest first,
// with two matches started in the same second both kept.
func TestCreateKeepsTheNewest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "replays")
	start := time.Date(2026, 12, 6, 4, 0, 0, 0, time.UTC)
	for i := range replays.Keep + 3 {
		f, err := replays.Create(dir, start.Add(time.Duration(i)*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("x")
		f.Close()
	}
	f, err := replays.Create(dir, start.Add(time.Duration(replays.Keep+2)*time.Minute)) // the same second as the last
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a replay"), 0o644)
	list, err := replays.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != replays.Keep {
		t.Fatalf("%d replays kept, want %d", len(list), replays.Keep)
	}
	newest := start.Add(time.Duration(replays.Keep+2) * time.Minute)
	if !list[0].Started.Equal(newest) || !list[1].Started.Equal(newest) ||
		filepath.Base(list[0].Path)+filepath.Base(list[1].Path) != "match-20261206-041200.slreplaymatch-20261206-041200-2.slreplay" {
		t.Fatalf("newest %v %s, then %v", list[0].Started, list[0].Path, list[1].Started)
	}
	for i := 1; i < len(list); i++ {
		if list[i].Started.After(list[i-1].Started) {
			t.Fatalf("not newest first at %d", i)
		}
	}
	if none, err := replays.List(filepath.Join(dir, "missing")); err != nil || len(none) != 0 {
		t.Fatalf("a missing folder: %v, %v", none, err)
	}
}
