package client

import "errors"

// ErrNoMatchList is returned by ListMatches when the server lists no
// matches (404 for GET /matches): it hosts one match, joined without
// naming it.
var ErrNoMatchList = errors.New("the server lists no matches")

// ErrNoSpectators is a client's SpectateErr when it asked to watch a match
// and the server, which takes no spectators, welcomed it as a player.
var ErrNoSpectators = errors.New("the server takes no spectators")
