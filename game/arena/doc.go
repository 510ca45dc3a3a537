// Package arena is the game's rules: a walled top-down arena several
// screens wide where players run, aim and shoot, creatures roam, and pickups
// lie on the floor. It is deterministic (same seed and inputs, same world),
// knows nothing of drawing or networking, and checks every input: movement
// is clamped to the rules, firing to the weapon's rate, and a player only
// ever acts for itself.
//
// The same movement code runs on the server and, for the player's own
// entity, on the client that predicts it.
package arena
