//go:build !js

package client

import "github.com/sightline-game/sightline/netcode/broadcast"

// defaultCastFetch is a Cast's fetch when its config names none: the
// broadcast package's own (net/http).
func defaultCastFetch() broadcast.Fetch { return nil }
