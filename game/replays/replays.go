// Package replays keeps the recent replays of the matches a desktop game
// hosted: one file a match in the player's config folder, the newest Keep
// of them, which the LAN menu lists and plays. It knows files and names,
// not the replay format (netcode/broadcast).
package replays

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sightline-game/sightline/game/settings"
)

// Ext ends the name of every replay file.
const Ext = ".slreplay"

// Keep is how many replays Create leaves in a folder: the newest.
const Keep = 10

// nameLayout is the time in a replay's name: match-20261206-040700.slreplay.
const nameLayout = "20060102-150405"

// Dir returns the folder of the player's recent replays: replays in the
// game's config folder (os.UserConfigDir()/sightline/replays).
func Dir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("replays: no config folder: %w", err)
	}
	return filepath.Join(dir, settings.Dir, "replays"), nil
}

// Create makes dir and a new replay file in it named for started, and
// removes the oldest replays beyond Keep (the new one counted).
func Create(dir string, started time.Time) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("replays: %w", err)
	}
	name := filepath.Join(dir, "match-"+started.UTC().Format(nameLayout)+Ext)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	for i := 2; os.IsExist(err) && i < 100; i++ { // two matches in one second
		name = filepath.Join(dir, fmt.Sprintf("match-%s-%d%s", started.UTC().Format(nameLayout), i, Ext))
		f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	}
	if err != nil {
		return nil, fmt.Errorf("replays: %w", err)
	}
	if list, err := List(dir); err == nil {
		for _, old := range list[min(len(list), Keep):] {
			os.Remove(old.Path)
		}
	}
	return f, nil
}

// Replay is one replay file in the folder.
type Replay struct {
	Path string
	// Started is when its match started (from its name; else the file's
	// time).
	Started time.Time
	Bytes   int64
}

// Name is how the menu names the replay: when its match was played, in
// local time.
func (r Replay) Name() string { return r.Started.Local().Format("Mon 2 Jan 15:04:05") }

// List returns the replays in dir, newest first; none if dir does not
// exist.
func List(dir string) ([]Replay, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("replays: %w", err)
	}
	var out []Replay
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), Ext) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		r := Replay{Path: filepath.Join(dir, e.Name()), Started: info.ModTime(), Bytes: info.Size()}
		stamp := strings.TrimSuffix(strings.TrimPrefix(e.Name(), "match-"), Ext)
		if t, err := time.Parse(nameLayout, stamp[:min(len(stamp), len(nameLayout))]); err == nil {
			r.Started = t
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Replay) int {
		if c := b.Started.Compare(a.Started); c != 0 {
			return c
		}
		return cmp.Compare(b.Path, a.Path)
	})
	return out, nil
}
