package options

import "errors"

// ErrCommandLine is a command line the flags cannot read: an unknown flag,
// a missing or malformed value.
var ErrCommandLine = errors.New("bad command line")
