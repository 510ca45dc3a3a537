// Package brain is how a bot plays: a [Brain] reads only what its client
// decoded and the map its welcome names, and answers with one input a tick.
// It hunts the nearest player or creature it has a clear line of fire to
// (the nearest of all if it sees none), shoots only where no wall is in the
// way, walks around walls along routes over the map's tiles, and wanders
// from one open spot to another when nothing is in view. A [Wanderer] is a
// simpler player still: a seed's worth of random walking and firing.
//
// # Modes
//
// Each tick a brain makes out what its view shows (perceive.go: where it
// is, whether it is stuck, its target, an item to fetch), takes the mode
// that calls for (decide, in mode.go: the first rule that holds) and plays
// that mode (roam.go, fight.go, fetch.go, detour.go; wait is one line of
// Next):
//
//	rule  when                                          mode
//	1     not in its own view, a detour under way       detour
//	2     not in its own view                           roam
//	3     dead                                          wait
//	4     a detour under way                            detour
//	5     pushed 5 ticks without moving                 detour (a new one)
//	6     an item it wants: within ItemGrab, or         fetch
//	      within ItemReach out of a duel with a player
//	7     a target                                      fight
//	8     otherwise                                     roam
//
// What each mode does, and keeps from one tick to the next:
//
//	mode    does                                             keeps
//	roam    looks around, never fires; walks a route to a    the goal tile, until when
//	        random open tile, then another (with no map or
//	        not in view: the Wanderer's walk)
//	fight   aims, fires when aligned and in range with the   which way it circles, until
//	        line clear; closes in (along a route when out    when; when it may dash again
//	        of sight), backs off, or circles; dashes
//	fetch   walks (a route) to the item, shooting at its     -
//	        target on the way
//	detour  walks one way for detourTicks; aims and fires    the ticks left, its stick
//	        as fight does, or looks around as roam does
//	wait    holds its aim, does nothing                      -
//
// A detour starts (rule 5) heading where the bot walks freely; it runs
// its ticks whatever else the bot sees, unless it dies. The modes share the route in use
// (course), the target remembered (preyMemory) and the stuck watch
// (stuckWatch).
//
// A brain knows nothing of connections: package game/bots runs brains as
// players over in-memory connections in the server's process; load tests
// and the browser tests run them over WebRTC.
package brain
