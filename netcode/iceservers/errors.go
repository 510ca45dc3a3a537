package iceservers

import "errors"

var (
	// ErrBadSecret is a secret that is not 64 hex digits, or is all zero.
	ErrBadSecret = errors.New("iceservers: a secret is 64 hex digits, not all zero")
	// ErrMalformedUsername is a username that is not "EXPIRY:ID".
	ErrMalformedUsername = errors.New("iceservers: malformed username")
	// ErrExpired is a credential whose expiry has passed.
	ErrExpired = errors.New("iceservers: credential expired")
	// ErrTooLong is a credential that expires further ahead than allowed.
	ErrTooLong = errors.New("iceservers: credential lives too long")
	// ErrBadURL is an ICE server URL that is not stun:, turn: or turns:
	// HOST[:PORT], with ?transport=udp or tcp for TURN.
	ErrBadURL = errors.New("iceservers: bad ICE server URL")
	// ErrBadList is a list of ICE servers a client refuses.
	ErrBadList = errors.New("iceservers: bad list of ICE servers")
)
