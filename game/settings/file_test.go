package settings

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestFileStore(t *testing.T) {
	ada := Settings{Name: "ada", MasterVolume: 0.4, EffectsVolume: 0.9, Mute: true, Overlay: true}
	for _, tc := range []struct {
		name    string
		file    *string // the file's content before Load; nil: no file
		want    Settings
		wantErr error
	}{
		{"no file: defaults", nil, Defaults(), nil},
		{"a saved file", ptr(`{"version":1,"name":"ada","master_volume":0.4,"effects_volume":0.9,"mute":true,"overlay":true}`), ada, nil},
		{"corrupt: defaults and an error", ptr("\x00\x01garbage"), Defaults(), ErrCorrupt},
		{"truncated: defaults and an error", ptr(`{"version":1,"name":"a`), Defaults(), ErrCorrupt},
		{"no version: defaults and an error", ptr(`{}`), Defaults(), ErrVersion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &FileStore{Path: filepath.Join(t.TempDir(), "sightline", "settings.json")}
			if tc.file != nil {
				if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(f.Path, []byte(*tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := f.Load()
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Fatalf("Load error %v, want %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Fatalf("Load = %+v, want %+v", got, tc.want)
			}
			// Saving replaces whatever was there, and Load reads it back.
			if err := f.Save(ada); err != nil {
				t.Fatal(err)
			}
			if got, err := f.Load(); err != nil || got != ada {
				t.Fatalf("after Save: %+v, %v", got, err)
			}
			assertOnlyFile(t, f.Path)
		})
	}
}

// assertOnlyFile checks that the settings folder holds the settings file
// and nothing else: no temporary file left over.
func assertOnlyFile(t *testing.T, path string) {
	t.Helper()
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 || ents[0].Name() != filepath.Base(path) {
		names := []string{}
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("folder holds %v, want only %s", names, filepath.Base(path))
	}
}

func TestFileStoreSaveTwiceKeepsTheLast(t *testing.T) {
	f := &FileStore{Path: filepath.Join(t.TempDir(), "settings.json")}
	for _, v := range []float64{0.1, 0.2, 0.3} {
		if err := f.Save(Settings{Name: "n", MasterVolume: v, EffectsVolume: v}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := f.Load()
	if err != nil || got.MasterVolume != 0.3 {
		t.Fatalf("Load = %+v, %v; want the last save", got, err)
	}
	assertOnlyFile(t, f.Path)
}

func TestFileStoreSaveFails(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a file where the folder should be fails differently on Windows")
	}
	dir := t.TempDir()
	blocker := filepath.Join(dir, "sightline")
	if err := os.WriteFile(blocker, []byte("a file, not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &FileStore{Path: filepath.Join(blocker, "settings.json")}
	if err := f.Save(Defaults()); err == nil {
		t.Fatal("Save into a path under a file succeeded")
	}
	if got, err := f.Load(); err == nil || got != Defaults() {
		t.Fatalf("Load from a path under a file: %+v, %v", got, err)
	}
}

func TestNewFileStoreUsesTheConfigFolder(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG_CONFIG_HOME is the config folder on Linux")
	}
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	f, err := NewFileStore()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "sightline", "settings.json"); f.Path != want {
		t.Fatalf("path %s, want %s", f.Path, want)
	}
	if err := f.Save(Settings{Name: "xdg", MasterVolume: 0.5, EffectsVolume: 0.5}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(f.Path); err != nil {
		t.Fatal(err)
	}
}

func TestMemory(t *testing.T) {
	var m Memory
	if got, err := m.Load(); err != nil || got != Defaults() {
		t.Fatalf("empty Memory: %+v, %v", got, err)
	}
	if err := m.Save(Settings{Name: " x ", MasterVolume: 2}); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.Load(); got != (Settings{Name: "x", MasterVolume: 1}) || m.Saves() != 1 {
		t.Fatalf("Memory holds %+v after %d saves", got, m.Saves())
	}
}

func ptr(s string) *string { return &s }
