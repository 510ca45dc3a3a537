package server

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// PlayerID names a connected player for the length of its connection.
type PlayerID = arena.PlayerID

// World is the game a match runs. The server calls it from the tick loop
// only, never concurrently.
type World interface {
	// AddPlayer is called when a player connects.
	AddPlayer(id PlayerID)
	// RemovePlayer is called when a player leaves or times out.
	RemovePlayer(id PlayerID)
	// ApplyInput hands over a player's input for its next tick; the world
	// checks it (the server never trusts a client).
	ApplyInput(id PlayerID, seq uint32, in arena.Input)
	// Observe says where player id sees from this tick.
	Observe(id PlayerID) Observer
	// AppliedInput returns the sequence number of the newest of the
	// player's inputs the world has applied (0 if none): the client replays
	// the inputs after it on top of the server's state.
	AppliedInput(id PlayerID) uint32
	// Step advances the world one tick.
	Step()
	// Fill writes the world's quantized state.
	Fill(dst *snapshot.Snapshot)
}

// RoundClock is a World that plays in rounds (arena's does): the server's
// Stats and a Host's match list then say the round and the time left.
type RoundClock interface {
	// Round returns the round under way (1 for the first) and the world
	// tick it ends on.
	Round() (round, endTick uint32)
	// Intermission reports whether the world is between two rounds.
	Intermission() bool
	// Tick returns the world's ticks stepped.
	Tick() uint32
}

// InputPacer is a World whose input queues tell how deep they ran
// (arena's does): each snapshot then tells its client how many of its
// inputs waited after the tick's step took one, or -1 if none came in
// time, and the client's input clock keeps that a little above none.
type InputPacer interface {
	InputSpare(id PlayerID) (n int, ok bool)
}

// StepTimer is a World told when each of its steps ran (arena's is): a
// step that runs late, or a tick skipped, sends its snapshots late, which
// the clients' interpolators count as jitter, and so does the world's
// bound on the views its shots are judged at.
type StepTimer interface {
	// StepTime says when the step just made ran: at ticks since the
	// match's first step (the time since then × the tick rate).
	StepTime(ticks float64)
}

// ShotJudge is a World that judges shots by what their shooters saw
// (arena's does): the server's Stats then carry its counters, and how long
// inputs wait in its queue, which a rewind has to cover.
type ShotJudge interface {
	RewindStats() arena.RewindStats
	// InputWait returns the ticks the applied inputs waited in their
	// queues beyond the first step they could have been applied on, and
	// how many inputs were applied.
	InputWait() (ticks, inputs uint64)
}

// RuleCounter is a World that counts what its rules did with the players'
// inputs and shots (arena's does): the server's Stats then carry those
// counters (InputsQueued, InputsTrimmed, DroppedQueueFull, ShotsFired,
// ShotsRefused).
type RuleCounter interface {
	Stats() arena.Stats
}
