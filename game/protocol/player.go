package protocol

import "github.com/sightline-game/sightline/game/arena"

// PlayerID names a connected player for the length of its connection.
type PlayerID = arena.PlayerID

// Observer is where a player sees from, in the snapshot's quantized units:
// what the server needs to choose that player's view.
type Observer = arena.Observer
