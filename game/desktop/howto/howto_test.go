package howto

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/desktop/settingsui"
	"github.com/sightline-game/sightline/game/settings"
)

// TestCardShowsUntilDismissedOnce starts matches with the settings in a
// fresh folder: the first shows the card, which a press in its first
// second leaves and a later press dismisses; the settings file then says
// so, and a match of the next run (new Prefs from the same file) shows no
// card, unless forced or asked for from the pause menu.
func TestCardShowsUntilDismissedOnce(t *testing.T) {
	store := &settings.FileStore{Path: filepath.Join(t.TempDir(), "sightline", "settings.json")}
	p := settingsui.NewPrefs(settingsui.PrefsConfig{Store: store})
	c := Open(p, false)
	if !c.Shown() {
		t.Fatal("a fresh settings folder: the card is not shown at the first match")
	}
	t0 := time.Unix(1000, 0)
	if !c.Update(t0, false) || !c.Update(t0.Add(500*time.Millisecond), true) {
		t.Fatal("a press half a second after the card appeared dismissed it")
	}
	if _, err := os.Stat(store.Path); err == nil {
		t.Fatal("the settings were saved before the card was dismissed")
	}
	if !c.Update(t0.Add(5*time.Second), false) {
		t.Fatal("the card went without a press")
	}
	if c.Update(t0.Add(MinShow+time.Millisecond), true) || c.Shown() {
		t.Fatal("a press after MinShow did not dismiss the card")
	}
	if err := c.SaveErr(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(store.Path)
	if err != nil || !strings.Contains(string(b), `"how_to_play_seen": true`) {
		t.Fatalf("settings file after the dismissal: %s (%v), want how_to_play_seen true", b, err)
	}

	// The next run.
	p2 := settingsui.NewPrefs(settingsui.PrefsConfig{Store: store})
	c2 := Open(p2, false)
	if c2.Shown() || c2.Update(t0, true) {
		t.Fatal("the card shows again after it was dismissed")
	}
	if !Open(p2, true).Shown() {
		t.Fatal("forced (-how-to-play): the card is not shown")
	}
	c2.Show()
	if !c2.Shown() || !c2.Update(t0.Add(time.Hour), true) {
		t.Fatal("shown again from the pause menu, a press at once dismissed it")
	}
	if c2.Update(t0.Add(time.Hour+MinShow), true) {
		t.Fatal("shown again: a press after MinShow did not dismiss it")
	}

	var none *Card
	if none.Shown() || none.Update(t0, false) {
		t.Fatal("a nil card is shown")
	}
	none.Show()
}

// TestSectionsSayTheRules checks the card's numbers against the arena's.
func TestSectionsSayTheRules(t *testing.T) {
	var all []string
	for _, s := range Sections() {
		all = append(all, s.Title)
		all = append(all, s.Lines...)
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{
		"WASD", "mouse aims", "Space fires", "Tab scoreboard", "Esc pause", "F3", "left stick moves", "right stick aims",
		"Other players' shots: 20 health", "pellets 18", "bite when they touch you: 10 health",
		"You have 100 health", "health packs give 30", "back in 3 s, shielded 2 s",
		"1 point for each player your shots kill, 1 point for each creature",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the card does not say %q:\n%s", want, text)
		}
	}
}
