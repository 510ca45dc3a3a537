package main

import "errors"

var (
	// errIDTooWide: a schema whose slot and generation do not fit the
	// byte-aligned formats' 2-byte id.
	errIDTooWide = errors.New("entity id wider than 16 bits")
	// errShort: a byte-aligned packet ends before what it announces.
	errShort = errors.New("packet too short")
	// errMalformed: a byte-aligned packet's content is invalid.
	errMalformed = errors.New("malformed packet")
	// errFlags: flags that do not go together.
	errFlags = errors.New("bad flags")
	// errMismatched: a client decoded a tick that differs from what the
	// server sent it (the command exits with status 2).
	errMismatched = errors.New("mismatched ticks")
	// errDecodedNothing: a client decoded no tick at all.
	errDecodedNothing = errors.New("a client decoded nothing")
)
