package session

import (
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// Config is what both ends of a session agree on.
type Config struct {
	// Schema of the snapshots.
	Schema *snapshot.Schema
	// Format is the wire format; each session gets its own (formats may keep
	// scratch space), so this makes one.
	Format func(*snapshot.Schema) snapstream.Format
	// History is how many ticks a delta may reach back (0 = snapstream.DefaultHistory).
	History int
	// InputSize is the size of one input in bytes.
	InputSize int
	// Redundancy is how many of the newest inputs each input datagram carries
	// (client side; 0 = 4, at most MaxRedundancy).
	Redundancy int
}
