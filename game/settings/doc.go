// Package settings holds the player's settings that outlive a run of the
// game: the name, the master and effects volumes, mute, fullscreen and the
// network overlay. It cleans them (the name as the server would, volumes
// into 0..1), encodes them as versioned JSON and keeps them in a Store: a
// file in the user's config folder on the desktop (FileStore), the page's
// localStorage in the browser (LocalStorage, js only), or memory (Memory).
//
// It links no Ebitengine: the desktop client applies the settings, this
// package only keeps them.
package settings
