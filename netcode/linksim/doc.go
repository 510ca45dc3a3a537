// Package linksim simulates one direction of an unreliable datagram link
// (think UDP over a lossy, jittery path) for tests and benchmarks of game
// netcode.
//
// A [Link] accepts packets with [Link.Send] and hands them back with
// [Link.Deliver] once their simulated arrival time has come. Along the way a
// packet may be lost (Gilbert-Elliott burst loss or independent loss),
// delayed by a base latency plus uniform jitter, held back so that later
// packets overtake it (reordering), duplicated, or dropped because too many
// packets are already in flight.
//
// A [Path] puts a Link and an [Ordered] queue together into one direction of
// a match connection (package transport): the unreliable channels share the
// link, each packet tagged with its channel, and events wait in the queue,
// delayed but never lost or reordered. The in-memory transport and the
// game's network conditioner both deliver through it, and a [Batch] holds
// what was delivered until it can be handed on.
//
// # Time
//
// The simulator never looks at the wall clock, never sleeps and starts no
// goroutines. Time is a [time.Duration] since the start of the run, passed in
// by the caller on every call; callers should pass non-decreasing times.
// [Link.NextArrival] reports when the next packet is due, so an event-driven
// harness can jump straight to it.
//
// # Determinism
//
// Each Link owns a PCG generator from math/rand/v2 seeded from the seed given
// to [New]. The same seed, configuration and sequence of calls produce the
// same run, bit for bit, on every platform. Every Send consumes exactly five
// 64-bit draws whatever the configuration, so two runs with the same seed
// that differ in one parameter (say Loss) still see the same jitter,
// reordering and duplication decisions for each packet: a change in results
// comes from the parameter, not from a reshuffled random stream.
//
// # Allocation
//
// Packet bytes are copied into buffers taken from a free list owned by the
// Link and returned to it after delivery; in-flight packets live in a
// min-heap on a slice the Link owns. Once the link has warmed up (seen its
// largest packet and its largest number of packets in flight), Send and
// Deliver allocate nothing. Memory is bounded by [Config.MaxQueue] packets.
//
// A Link is not safe for concurrent use by multiple goroutines.
package linksim
