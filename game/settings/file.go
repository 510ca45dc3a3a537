package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The settings file's place under the user's config folder.
const (
	Dir      = "sightline"
	FileName = "settings.json"
)

// FileStore keeps the settings in a JSON file.
type FileStore struct {
	// Path is the file's path.
	Path string
}

// NewFileStore returns the store at the user's config folder
// (os.UserConfigDir: $XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/
// Application Support on macOS, %AppData% on Windows) /sightline/settings.json.
func NewFileStore() (*FileStore, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("settings: no config folder: %w", err)
	}
	return &FileStore{Path: filepath.Join(dir, Dir, FileName)}, nil
}

// Load reads the file: Defaults when there is none, Defaults and an error
// when it cannot be read or is not settings.
func (f *FileStore) Load() (Settings, error) {
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults(), nil
	}
	if err != nil {
		return Defaults(), fmt.Errorf("settings: %w", err)
	}
	s, err := Unmarshal(b)
	if err != nil {
		return Defaults(), fmt.Errorf("%s: %w", f.Path, err)
	}
	return s, nil
}

// Save writes s to the file atomically: into a temporary file beside it,
// synced, then renamed over it, so that a crash leaves the old settings or
// the new ones, never half of either. It creates the folder if need be.
func (f *FileStore) Save(s Settings) error {
	b, err := Marshal(s)
	if err != nil {
		return err
	}
	dir := filepath.Dir(f.Path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(f.Path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(b); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.Path); err != nil {
		os.Remove(tmp.Name())
		done = true
		return fmt.Errorf("settings: %w", err)
	}
	done = true
	return nil
}
