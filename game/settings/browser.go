//go:build js

package settings

import (
	"fmt"
	"syscall/js"
)

// StorageKey is the localStorage key the browser keeps the settings under.
const StorageKey = "sightline.settings"

// LocalStorage keeps the settings in the page's localStorage.
type LocalStorage struct {
	// Key is the item's key (default StorageKey).
	Key string
}

func (l *LocalStorage) key() string {
	if l.Key == "" {
		return StorageKey
	}
	return l.Key
}

// storage returns window.localStorage, or an error where the browser has
// none or refuses it (some private modes throw on access).
func storage() (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("settings: no localStorage: %v", r)
		}
	}()
	v = js.Global().Get("localStorage")
	if v.IsUndefined() || v.IsNull() {
		return v, fmt.Errorf("settings: no localStorage")
	}
	return v, nil
}

// Load reads the settings: Defaults when none are stored, Defaults and an
// error when the storage is unavailable or the item is not settings.
func (l *LocalStorage) Load() (s Settings, err error) {
	st, err := storage()
	if err != nil {
		return Defaults(), err
	}
	defer func() {
		if r := recover(); r != nil {
			s, err = Defaults(), fmt.Errorf("settings: localStorage: %v", r)
		}
	}()
	item := st.Call("getItem", l.key())
	if item.IsNull() || item.IsUndefined() {
		return Defaults(), nil
	}
	s, err = Unmarshal([]byte(item.String()))
	if err != nil {
		return Defaults(), fmt.Errorf("localStorage %q: %w", l.key(), err)
	}
	return s, nil
}

// Save stores s under the key (a full storage or a refusing browser is an
// error).
func (l *LocalStorage) Save(s Settings) (err error) {
	b, err := Marshal(s)
	if err != nil {
		return err
	}
	st, err := storage()
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("settings: localStorage: %v", r)
		}
	}()
	st.Call("setItem", l.key(), string(b))
	return nil
}

var _ Store = (*LocalStorage)(nil)
