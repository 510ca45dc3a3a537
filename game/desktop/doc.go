// Package desktop is the Ebitengine client of the arena: it drives the
// headless client (game/client) from the game loop, predicts the player's own
// entity and interpolates everyone else (game/smooth), and draws the map,
// the entities, a minimap, the HUD and a network overlay.
//
// One concept per file:
//
//	app.go         the ebiten.Game: one scene at a time, frame cap, timed exit, screenshot
//	menu.go        the start menu: matches on the LAN, an address field, hosting
//	settings.go    the settings screen and the pause menu (Esc), drawn; Prefs shared by all scenes
//	settingsui/    their state machines, layout and the applying and saving of settings
//	game.go        the match scene: Update, Draw
//	input.go       Input: keys, mouse and gamepad into intents (mapping in package controls)
//	net.go         one network step per Update: poll, push, reconcile, send
//	camera/        the camera that follows the player, held inside the world at its edges
//	world.go       the static map, painted once from the tiles into offscreen chunks
//	draw.go        creatures, players, projectiles and pickups
//	anim.go        walk cycles and effects: muzzle flashes, impacts, creatures' deaths
//	drawn.go       Drawn: what a frame drew where, saved beside a screenshot for tests
//	sprites.go     the sprite sheets and tiles (package assets) cut into frames
//	art.go         Art: the sheets and faces decoded, ahead of the game if the caller has time
//	minimap.go     the map in a corner with dots
//	hud.go         health, score, round clock, kill feed, chat, scoreboard, status and hint
//	hudlayout/     where the bottom corners' bars and lines go, panels sized to their text
//	howto.go       the "how to play" card, drawn; howto/: what it says and when it shows
//	records.go     what the replica records say: scores, pickups, the clock
//	overlay.go     the network overlay (F3) and the link conditioner's keys
//	palette.go     colors; fonts.go: text in the bitmap fonts (assets/fonts), laid out by text/
//	screenshot.go  saving a frame as PNG (-screenshot)
//
// Nothing here holds rules: the movement the predictor replays is arena's,
// and the pure parts of this client (input mapping, feeds, the overlay's
// numbers, the menu's list and pings in lobby, the camera, the HUD's
// layout, the how-to-play card's state) live in sub-packages that
// test without a display.
package desktop
