package settingsui

import (
	"log/slog"
	"sync"

	"github.com/sightline-game/sightline/game/settings"
)

// PrefsConfig sets up Prefs.
type PrefsConfig struct {
	// Store keeps the settings (default: a settings.Memory, kept for the
	// run only).
	Store settings.Store
	// SetVolume, if set, applies the volumes and mute to the sound.
	SetVolume func(master, effects float64, mute bool)
	// SetFullscreen, if set, applies fullscreen.
	SetFullscreen func(on bool)
	// Name, if set, is the player's name for this run whatever the stored
	// one (a -name flag); it is not saved unless the player changes the
	// name.
	Name string
	// Fallback is the name when neither Name nor the stored settings give
	// one (the system user's name, say).
	Fallback string
	// Where says where the store keeps the settings, for the screen (like
	// the file's path); "" says nothing.
	Where string
	// Logger receives a store that cannot be read or written (once each).
	Logger *slog.Logger
}

// Prefs are the settings in force: loaded from the store at the start,
// applied (sound, fullscreen) and saved whenever they change. The game's
// scenes share one. It is safe for concurrent use (a join reads the name
// from its own goroutine).
type Prefs struct {
	cfg PrefsConfig

	mu        sync.Mutex
	s         settings.Settings // as stored
	name      string            // this run's name, over s.Name ("": none)
	loadErr   error
	saveFails int
}

// NewPrefs loads the settings from cfg.Store. A store that cannot be read
// gives the defaults, and is logged; saving replaces what it held.
func NewPrefs(cfg PrefsConfig) *Prefs {
	if cfg.Store == nil {
		cfg.Store = &settings.Memory{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	p := &Prefs{cfg: cfg, name: settings.CleanName(cfg.Name)}
	p.s, p.loadErr = cfg.Store.Load()
	p.s = p.s.Clean()
	if p.loadErr != nil {
		cfg.Logger.Warn("settings not read: using the defaults", "err", p.loadErr)
	}
	return p
}

// Where returns where the settings are kept (PrefsConfig.Where).
func (p *Prefs) Where() string { return p.cfg.Where }

// LoadErr returns why the stored settings could not be read, if they could
// not.
func (p *Prefs) LoadErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.loadErr
}

// Name returns the player's name: this run's (-name), else the stored one,
// else the fallback.
func (p *Prefs) Name() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nameLocked()
}

func (p *Prefs) nameLocked() string {
	switch {
	case p.name != "":
		return p.name
	case p.s.Name != "":
		return p.s.Name
	}
	return settings.CleanName(p.cfg.Fallback)
}

// Settings returns the settings in force, with Name the name in force.
func (p *Prefs) Settings() settings.Settings {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.s
	s.Name = p.nameLocked()
	return s
}

// Stored returns the settings as the store has them (Name as stored).
func (p *Prefs) Stored() settings.Settings {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.s
}

// Apply applies the settings in force: the volumes and mute to the sound,
// fullscreen to the window. Set applies what changes; call Apply once at
// the start.
func (p *Prefs) Apply() {
	s := p.Settings()
	if p.cfg.SetVolume != nil {
		p.cfg.SetVolume(s.MasterVolume, s.EffectsVolume, s.Mute)
	}
	if p.cfg.SetFullscreen != nil {
		p.cfg.SetFullscreen(s.Fullscreen)
	}
}

// Set makes s the settings in force (as Settings returns them: a name that
// differs from the name in force is the player's new name, saved and used
// from now on), applies what changed and saves them. It returns the save's
// error, which is also logged (the first time).
func (p *Prefs) Set(s settings.Settings) error {
	s = s.Clean()
	p.mu.Lock()
	old := p.s
	oldName := p.nameLocked()
	next := s
	if s.Name == oldName {
		next.Name = old.Name // unchanged: keep the stored one (a -name is not saved)
	} else {
		p.name = "" // chosen now: it is the name from now on, and saved
	}
	p.s = next
	p.mu.Unlock()

	if p.cfg.SetVolume != nil && (s.MasterVolume != old.MasterVolume || s.EffectsVolume != old.EffectsVolume || s.Mute != old.Mute) {
		p.cfg.SetVolume(s.MasterVolume, s.EffectsVolume, s.Mute)
	}
	if p.cfg.SetFullscreen != nil && s.Fullscreen != old.Fullscreen {
		p.cfg.SetFullscreen(s.Fullscreen)
	}
	if next == old {
		return nil
	}
	err := p.cfg.Store.Save(next)
	if err != nil {
		p.mu.Lock()
		p.saveFails++
		first := p.saveFails == 1
		p.mu.Unlock()
		if first {
			p.cfg.Logger.Warn("settings not saved", "err", err)
		}
	}
	return err
}

// SetName makes name the player's name, saved.
func (p *Prefs) SetName(name string) error {
	s := p.Settings()
	s.Name = name
	return p.Set(s)
}

// ToggleMute turns the sound off or on (the M key), saved, and returns
// whether it is muted now.
func (p *Prefs) ToggleMute() bool {
	s := p.Settings()
	s.Mute = !s.Mute
	p.Set(s)
	return s.Mute
}
