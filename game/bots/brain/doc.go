// Package brain is how a bot plays: a [Brain] reads only what its client
// decoded and the map its welcome names, and answers with one input a tick.
// It hunts the nearest player or creature it has a clear line of fire to
// (the nearest of all if it sees none), shoots only where no wall is in the
// way, walks around walls along routes over the map's tiles, and wanders
// from one open spot to another when nothing is in view. A [Wanderer] is a
// simpler player still: a seed's worth of random walking and firing.
//
// A brain knows nothing of connections: package game/bots runs brains as
// players over in-memory connections in the server's process; load tests
// and the browser tests run them over WebRTC.
package brain
