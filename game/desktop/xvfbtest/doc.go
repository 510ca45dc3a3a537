// Package xvfbtest runs the desktop game (cmd/game) in a real X server and
// checks what it drew. It holds only tests: they build the game, run it
// under xvfb-run for a few seconds and read the screenshot it saved of its
// last frame. Beside the screenshot the game writes what that frame drew
// where (game/desktop/drawn.go), so the match test checks every body it
// drew against the pixels, whatever the bots did: each body's disc in the
// colour of its sprite, and the map's tiles, where the map has them, as
// textured plates and bevelled blocks rather than flat rectangles; and it
// shows the same checks rejecting bodies and a map looked for in the wrong
// place, and tiles painted flat. The own-shot test joins a match server over
// a link with 75 ms added each way and reads, beside its last frame, the
// latest fire presses: each bolt drawn in the first frame after its press,
// a round trip before the server's copy. One hosts a match with bots and plays it; the other hosts a
// match that announces itself on the LAN and starts a second game at the
// menu (-browse), which must list it with its ping. The settings tests run
// the game on an Xvfb of their own and press keys and click through the
// XTEST extension (xinput_test.go), then read the settings file the game
// saved in a temporary XDG_CONFIG_HOME. The how-to-play test finds the card
// on a first match's screenshot, dismisses it with keys and sees the next
// match start without it; the host-port test hosts on a UDP port it holds
// and reads the warning naming the port the game took instead; the
// invite test hosts through a rendezvous on loopback and finds the invite
// link in the HUD and, whole, under the pause menu. With
// SIGHTLINE_HOWTO_SHOT_OUT, SIGHTLINE_HOST_SHOT_OUT and SIGHTLINE_WATCH_SHOT_OUT
// (paths) the how-to-play, invite and spectator tests save their
// screenshots there too (docs/how-to-play.png, docs/host-pause.png,
// docs/spectator.png's kind); SIGHTLINE_CONNECT_SHOTS_OUT (a folder) the
// connecting tests theirs (saveShot, in main_test.go). The killcam tests
// play until a bot kills the player, and follow a duel's strafer over a
// lagged link as a spectator until the aimer kills it, each waiting for
// the killcam's verdict on screen (-exit-when killcam=N);
// SIGHTLINE_KILLCAM_SHOT_OUT and SIGHTLINE_KILLCAM_LAG_SHOT_OUT save their
// screenshots (docs/killcam.png, docs/killcam-lag.png).
//
// Nothing here waits a fixed time for the game: a timed run counts from
// the match's (or menu's) first frame (-exit-after), or ends once what the
// test waits for happened (-exit-when), and
// each key or click goes down, then up, only once the game said it saw the
// step before (-echo-input). A busy machine makes the tests slower, not
// red; the deadlines are minutes, for a game that stopped.
//
// The tests live apart from package desktop because any binary that links
// Ebitengine panics at start without an X display: this package does not
// link it, so `go test ./...` works anywhere, and the game itself runs under
// Xvfb. Without xvfb-run the tests skip (they fail instead when
// SIGHTLINE_REQUIRE_XVFB=1, as `make test` sets after installing it).
//
// With SIGHTLINE_SCREENSHOT_OUT=docs/screenshot.png (a path; relative paths
// are from the module root) the match's screenshot is also saved there.
package xvfbtest
