package client

import "errors"

// ErrNoMatchList is returned by ListMatches when the server lists no
// matches (404 for GET /matches): it hosts one match, joined without
// naming it.
var ErrNoMatchList = errors.New("the server lists no matches")
