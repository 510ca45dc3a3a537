//go:build !linux

package lan

import "errors"

// setBroadcast is only wired up on Linux, where the project's hosts run; a
// browser cannot send UDP at all.
func setBroadcast(uintptr) error { return errors.New("lan: broadcast beacons need Linux") }
