package linksim

import "errors"

// ErrConfig is returned, wrapped, by [Config.Validate], [New] and
// [Link.SetConfig] when a Config holds an out-of-range value. Test for it
// with errors.Is.
var ErrConfig = errors.New("linksim: invalid config")
