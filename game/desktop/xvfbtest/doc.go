// Package xvfbtest runs the desktop game (cmd/game) in a real X server and
// checks what it drew. It holds only a test: it builds the game, runs it
// under xvfb-run hosting a match with bots for a few seconds, and reads the
// screenshot the game saved of its last frame.
//
// The test lives apart from package desktop because any binary that links
// Ebitengine panics at start without an X display: this package does not
// link it, so `go test ./...` works anywhere, and the game itself runs under
// Xvfb. Without xvfb-run the test skips (it fails instead when
// SIGHTLINE_REQUIRE_XVFB=1, as `make test` sets after installing it).
//
// With SIGHTLINE_SCREENSHOT_OUT=docs/screenshot.png (a path; relative paths
// are from the module root) the screenshot is also saved there.
package xvfbtest
