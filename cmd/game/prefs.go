package main

import (
	"log/slog"
	"os/user"

	"github.com/sightline-game/sightline/game/desktop"
	"github.com/sightline-game/sightline/game/desktop/settingsui"
	"github.com/sightline-game/sightline/game/settings"
)

// loadPrefs loads the player's settings from the user's config folder
// (settings.NewFileStore): -name, when given, names the player for this run
// without being saved. Without a config folder the settings last the run.
// The volumes and mute go to volume.
func loadPrefs(log *slog.Logger, o options, volume desktop.VolumeSetter) *settingsui.Prefs {
	cfg := desktop.PrefsConfig{Name: o.Name, Fallback: defaultName(), Logger: log, Volume: volume}
	if fs, err := settings.NewFileStore(); err != nil {
		log.Warn("settings kept for this run only", "err", err)
	} else {
		cfg.Store, cfg.Where = fs, fs.Path
	}
	return desktop.NewPrefs(cfg)
}

// defaultName is the name of a player who has chosen none: the system
// user's, or "player".
func defaultName() string {
	if u, err := user.Current(); err == nil && u.Username != "" && u.Username != "root" {
		return u.Username
	}
	return "player"
}
