package view

import "errors"

var (
	// ErrRateBelowFloor is returned for a Config whose Rate is below
	// MinRate: a budget that cannot carry the packet header and the
	// player's own entity every tick.
	ErrRateBelowFloor = errors.New("view: budget below the floor")
	// ErrPacketCapTooSmall is returned for a Config whose PacketCap cannot
	// hold the packet header and one entity at its largest.
	ErrPacketCapTooSmall = errors.New("view: packet cap too small")
)
