package memory

import "errors"

var (
	// ErrConfig is returned, wrapped, by [NewPair] for an unusable Config.
	ErrConfig = errors.New("memory: invalid config")
	// ErrUnknownChannel is returned by Send for a channel outside
	// [0, transport.NumChannels).
	ErrUnknownChannel = errors.New("memory: unknown channel")
)
