package settings

import "sync"

// A Store keeps the settings between runs.
type Store interface {
	// Load returns the stored settings, cleaned: Defaults when none are
	// stored yet (and a nil error). When the stored settings cannot be
	// read it returns Defaults and an error the caller logs; saving then
	// replaces them.
	Load() (Settings, error)
	// Save stores s, cleaned.
	Save(s Settings) error
}

// Memory is a Store in memory: for tests, and where nothing persists. Its
// zero value holds nothing yet (Load gives Defaults). It is safe for
// concurrent use.
type Memory struct {
	mu    sync.Mutex
	s     Settings
	saved bool
	saves int
}

// Load returns the settings saved last, or Defaults.
func (m *Memory) Load() (Settings, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.saved {
		return Defaults(), nil
	}
	return m.s, nil
}

// Save keeps s, cleaned.
func (m *Memory) Save(s Settings) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s, m.saved = s.Clean(), true
	m.saves++
	return nil
}

// Saves returns how many times Save was called.
func (m *Memory) Saves() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.saves
}

var (
	_ Store = (*Memory)(nil)
	_ Store = (*FileStore)(nil)
)
