package protocol

// PlayerID names a connected player for the length of its connection.
type PlayerID uint32

// Observer is where a player sees from, in the snapshot's quantized units:
// what the server needs to choose that player's view.
type Observer struct {
	X, Y    uint32
	Aim     float64 // radians: what the player aims at matters more
	Self    uint16  // the slot of its own entity, always sent when it changes
	HasSelf bool
}
