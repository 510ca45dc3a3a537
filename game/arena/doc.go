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
// walls or after their lifetime, and hit the first player or creature
// they touch; players take pickups (health packs when hurt, spread guns,
// power-ups: weapons.go); the round ends on time, and the next starts after
// an intermission in which nobody fires or is hurt (round.go). A
// player who just joined or respawned is shielded for [SpawnShieldTicks]
// (no damage, [StateShielded]) unless it fires first.
//
// # Weapons
//
// A player fires the gun (one projectile, [ProjectileDamage], every
// [FireInterval] ticks) or, after taking a spread gun, [SpreadShots] spread
// shots ([SpreadPellets] pellets [SpreadAngle] apart, [SpreadDamage] each,
// [SpreadTicks] of flight, every [SpreadFireInterval] ticks). A power-up
// multiplies the damage of the shots fired in the next [PowerTicks] by
// [PowerFactor]. Each player's [Loadout] travels as a record.
// [World.AppendEntities] then lists what everyone may see: creatures,
// players, projectiles, in increasing slot order, each slot reuse under a
// new generation.
//
// # Three kinds of state out
//
// State that changes all the time is the entities ([Entity]). State that
// must arrive exactly (scores and names, loadouts, pickups, the round clock)
// is records ([World.ChangedRecords], [World.AllRecords]: plain [Record]
// values). One-shot happenings (hits, kills, the end of a round) are events
// ([World.TakeEvents]: plain [Event] values).
//
// The arena knows no bytes: game/protocol, which imports it, quantizes the
// entities into snapshots, encodes the records and events, and reads the
// inputs off the wire.
package arena
