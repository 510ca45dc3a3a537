// Package page holds the browser client's page, served by the match server
// beside the game's WebAssembly.
package page

import _ "embed"

// Index is the page: a loading screen with progress while the .wasm
// downloads, a clear message when WebGL2 or WebRTC is missing, and a canvas
// that fills the window. On a server hosting several matches (GET /matches
// lists two or more) it shows them while the game downloads, and the
// player's choice goes into the address as ?match=ID, which the game joins.
//
//go:embed index.html
var Index []byte

// LZMA is the page's decoder of game.wasm.lzma, the game packed in LZMA for
// a browser on plain http, which asks for gzip alone (see game/web): the
// page runs it as a worker and compiles the bytes it decodes as they come.
//
//go:embed lzma.js
var LZMA []byte
