package server

import "errors"

// Sentinel errors of a Host; test with errors.Is.
var (
	// ErrNoMatch: the match named is not one the Host has.
	ErrNoMatch = errors.New("no such match")
	// ErrMatchFull: the match named, or every match when none is named,
	// has no room for another player.
	ErrMatchFull = errors.New("match full")
	// ErrBadHost: NewHost was given no match, a match without an ID or a
	// server, or two matches with one ID.
	ErrBadHost = errors.New("bad match list")
)
