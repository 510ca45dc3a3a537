// Package arena is the game's rules: a walled top-down arena several
// screens wide where players run, aim and shoot, creatures roam, and pickups
// lie on the floor. It is deterministic (same seed and inputs, same world),
// knows nothing of drawing or networking, and checks every input: movement
// is clamped to the rules, firing to the weapon's rate, and a player only
// ever acts for itself.
//
// The same movement code runs on the server and, for the player's own
// entity, on the client that predicts it.
//
// # A tick
//
// A [World] is stepped once per tick ([World.Step]): each player consumes
// one input from its queue ([World.ApplyInput] fills it; with none queued
// the player keeps walking, or dashing, the same way without firing),
// maybe starts a dash on a press of [ButtonDash] ([Dash]: DashTicks at
// DashSpeed, then DashCooldown before the next), moves ([Dash.Move],
// [MovePlayer]) and maybe fires; creatures roam like the bandwidth model's
// walkers and bite players they touch; projectiles fly in sub-steps, die on
// walls or after [ProjectileTicks], and hit the first player or creature
// they touch; hurt players take health packs; the round ends on time. A
// player who just joined or respawned is shielded for [SpawnShieldTicks]
// (no damage, [StateShielded]) unless it fires first.
// [World.Fill] then quantizes the state into a snapshot of [Schema]:
// creatures, players, projectiles, in increasing slot order, each slot
// reuse under a new generation.
//
// # Three streams out
//
// State that changes all the time goes into snapshots (Fill). State that
// must arrive exactly (scores and names, health packs, the round clock)
// goes out as replica records ([World.ChangedRecords], [World.AllRecords];
// ids and payloads in records.go, parsers for clients). One-shot happenings
// (hits, kills, the end of a round) go out as events ([World.TakeEvents]),
// with the events package's bodies.
//
// # Types shared with protocol
//
// game/protocol imports this package for the schema, so the arena defines
// [PlayerID], [Input] and [Observer] and protocol aliases them: a World is
// the match server's World as it is.
package arena
