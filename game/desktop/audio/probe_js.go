//go:build js

package audio

import (
	"fmt"
	"syscall/js"
)

// probeDevice checks that the browser has Web Audio. Its AudioContext
// starts suspended and Ebitengine resumes it on the first user gesture.
func probeDevice() error {
	g := js.Global()
	if g.Get("AudioContext").Truthy() || g.Get("webkitAudioContext").Truthy() {
		return nil
	}
	return fmt.Errorf("%w: the browser has no AudioContext", ErrNoDevice)
}
