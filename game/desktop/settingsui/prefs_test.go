package settingsui

import (
	"errors"
	"testing"

	"github.com/sightline-game/sightline/game/settings"
)

// applied records what Prefs applied.
type applied struct {
	volumes    [][3]any
	fullscreen []bool
}

func (a *applied) config(store settings.Store, name, fallback string) PrefsConfig {
	return PrefsConfig{
		Store: store, Name: name, Fallback: fallback,
		SetVolume:     func(m, e float64, mute bool) { a.volumes = append(a.volumes, [3]any{m, e, mute}) },
		SetFullscreen: func(on bool) { a.fullscreen = append(a.fullscreen, on) },
	}
}

func TestPrefsName(t *testing.T) {
	for _, tc := range []struct {
		name, stored, flag, fallback string
		want                         string
	}{
		{"stored", "ada", "", "root", "ada"},
		{"flag over stored", "ada", "bob", "root", "bob"},
		{"fallback when none", "", "", "carol", "carol"},
		{"flag cleaned", "", " \x1bdan\n", "x", "dan"},
	} {
		store := &settings.Memory{}
		if tc.stored != "" {
			store.Save(settings.Settings{Name: tc.stored})
		}
		var a applied
		p := NewPrefs(a.config(store, tc.flag, tc.fallback))
		if got := p.Name(); got != tc.want {
			t.Errorf("%s: Name() = %q, want %q", tc.name, got, tc.want)
		}
		if got := p.Settings().Name; got != tc.want {
			t.Errorf("%s: Settings().Name = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestPrefsSetSavesAndApplies(t *testing.T) {
	store := &settings.Memory{}
	store.Save(settings.Settings{Name: "ada", MasterVolume: 0.5, EffectsVolume: 0.5})
	var a applied
	p := NewPrefs(a.config(store, "flagname", "root"))
	p.Apply()
	if len(a.volumes) != 1 || a.volumes[0] != [3]any{0.5, 0.5, false} || len(a.fullscreen) != 1 || a.fullscreen[0] {
		t.Fatalf("Apply: volumes %v, fullscreen %v", a.volumes, a.fullscreen)
	}

	// A volume changes: applied and saved, with the stored name, not this run's.
	s := p.Settings()
	s.MasterVolume = 0.7
	if err := p.Set(s); err != nil {
		t.Fatal(err)
	}
	if got, _ := store.Load(); got.Name != "ada" || got.MasterVolume != 0.7 {
		t.Fatalf("stored %+v, want ada at 0.7", got)
	}
	if a.volumes[len(a.volumes)-1] != [3]any{0.7, 0.5, false} || len(a.fullscreen) != 1 {
		t.Fatalf("applied volumes %v, fullscreen %v", a.volumes, a.fullscreen)
	}
	if p.Name() != "flagname" {
		t.Fatalf("name %q, want this run's", p.Name())
	}

	// Setting the same again saves nothing.
	saves := store.Saves()
	p.Set(p.Settings())
	if store.Saves() != saves {
		t.Fatal("an unchanged Set saved")
	}

	// Fullscreen: applied, not the sound.
	s = p.Settings()
	s.Fullscreen = true
	nv := len(a.volumes)
	p.Set(s)
	if len(a.volumes) != nv || a.fullscreen[len(a.fullscreen)-1] != true {
		t.Fatalf("fullscreen: volumes %v, fullscreen %v", a.volumes, a.fullscreen)
	}

	// A new name is this run's and saved.
	if err := p.SetName("eve"); err != nil {
		t.Fatal(err)
	}
	if got, _ := store.Load(); got.Name != "eve" || !got.Fullscreen || p.Name() != "eve" {
		t.Fatalf("after SetName: stored %+v, name %q", got, p.Name())
	}

	// M mutes, applied and saved.
	if !p.ToggleMute() {
		t.Fatal("ToggleMute did not mute")
	}
	if got, _ := store.Load(); !got.Mute || a.volumes[len(a.volumes)-1] != [3]any{0.7, 0.5, true} {
		t.Fatalf("after mute: stored %+v, applied %v", got, a.volumes)
	}
}

func TestPrefsFallbackNameIsNotSaved(t *testing.T) {
	store := &settings.Memory{}
	p := NewPrefs(PrefsConfig{Store: store, Fallback: "root"})
	s := p.Settings()
	s.Overlay = true
	p.Set(s)
	if got, _ := store.Load(); got.Name != "" || !got.Overlay {
		t.Fatalf("stored %+v: want the overlay and no name", got)
	}
	// Clearing the name gives the fallback back.
	p.SetName("zed")
	p.SetName("")
	if got, _ := store.Load(); got.Name != "" || p.Name() != "root" {
		t.Fatalf("stored %+v, name %q", got, p.Name())
	}
}

// failing is a store whose Load and Save fail.
type failing struct{ saves int }

var errDisk = errors.New("disk on fire")

func (f *failing) Load() (settings.Settings, error) { return settings.Defaults(), errDisk }
func (f *failing) Save(settings.Settings) error     { f.saves++; return errDisk }

func TestPrefsStoreFails(t *testing.T) {
	f := &failing{}
	p := NewPrefs(PrefsConfig{Store: f})
	if !errors.Is(p.LoadErr(), errDisk) {
		t.Fatalf("LoadErr %v", p.LoadErr())
	}
	if p.Settings().MasterVolume != settings.DefaultMasterVolume {
		t.Fatalf("settings %+v, want the defaults", p.Settings())
	}
	if err := p.SetName("x"); !errors.Is(err, errDisk) {
		t.Fatalf("Set error %v", err)
	}
	// The change holds for the run even though it was not saved.
	if p.Name() != "x" || f.saves != 1 {
		t.Fatalf("name %q after %d saves", p.Name(), f.saves)
	}
}

func TestPrefsWithoutStoreOrAppliers(t *testing.T) {
	p := NewPrefs(PrefsConfig{})
	p.Apply()
	if p.ToggleMute() != true || !p.Settings().Mute {
		t.Fatal("mute without a store or sound")
	}
}
