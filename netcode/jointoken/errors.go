package jointoken

import "errors"

// Sentinel errors of the package; Check's and Open's errors wrap them.
// A server answers ErrMissing with 401, ErrFull and ErrInUse with 503 and
// the others with 403 (see Status).
var (
	// ErrMissing: the offer carried no token.
	ErrMissing = errors.New("join token required")
	// ErrMalformed: the text is not a token (too long, not base64url,
	// too short, or claims that do not parse).
	ErrMalformed = errors.New("join token malformed")
	// ErrVersion: a token of a version this server does not read.
	ErrVersion = errors.New("join token of an unknown version")
	// ErrForged: the token does not open with this server's key (another
	// key, or altered).
	ErrForged = errors.New("join token does not open")
	// ErrExpired: the token's expiry has passed.
	ErrExpired = errors.New("join token expired")
	// ErrTooLong: the token expires further ahead than the server allows.
	ErrTooLong = errors.New("join token lives too long")
	// ErrWrongServer: the token is for another server.
	ErrWrongServer = errors.New("join token is for another server")
	// ErrWrongMatch: the token is for another match.
	ErrWrongMatch = errors.New("join token is for another match")
	// ErrReplayed: the token was used before.
	ErrReplayed = errors.New("join token already used")
	// ErrInUse: the token is held by a join still under way (Reserve);
	// it is spent if that join succeeds and free again if it fails.
	ErrInUse = errors.New("join token in use by a join under way")
	// ErrFull: the server remembers as many used tokens as it may; it
	// admits more as they expire.
	ErrFull = errors.New("too many join tokens in use")
	// ErrBadKey: a key file that does not hold 64 hex digits.
	ErrBadKey = errors.New("join token key must be 64 hex digits (32 bytes), not all zero")
)
