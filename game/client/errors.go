package client

import (
	"errors"

	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// ErrNoMatchList is returned by ListMatches when the server lists no
// matches (404 for GET /matches): it hosts one match, joined without
// naming it.
var ErrNoMatchList = errors.New("the server lists no matches")

// Errors a failed join wraps to say where it failed; test with errors.Is
// (Explain turns them into what a player reads). A server's refusal (full,
// no or a bad join token, another protocol version, no such match) is a
// *datachan.Refused instead, with its status and reason: errors.As.
var (
	// ErrUnreachable: the server's HTTP address gave no reply: nothing
	// listens there, or no reply came in time.
	ErrUnreachable = datachan.ErrUnreachable
	// ErrICEFailed: the server answered the offer, but no network path to
	// it worked.
	ErrICEFailed = datachan.ErrICEFailed
	// ErrChannelsNotOpen: a network path worked, but the data channels
	// did not open.
	ErrChannelsNotOpen = datachan.ErrChannelsNotOpen
	// ErrNoSnapshot: the channels opened, but no snapshot came in time.
	ErrNoSnapshot = errors.New("client: no snapshot from the server")
)

// ErrNoSpectators is a client's SpectateErr when it asked to watch a match
// and the server, which takes no spectators, welcomed it as a player.
var ErrNoSpectators = errors.New("the server takes no spectators")
