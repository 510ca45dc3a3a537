package audio

import "errors"

// ErrNoDevice is wrapped by the reason New plays silent.
var ErrNoDevice = errors.New("audio: no sound device")
