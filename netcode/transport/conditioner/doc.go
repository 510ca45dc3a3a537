// Package conditioner makes a connection worse on purpose: [Conn] wraps any
// transport.Conn and adds loss (independent or in bursts), latency and
// jitter both ways, from a seeded link simulator (netcode/linksim). Events
// only get latency: they stay reliable and ordered.
//
// The game puts one under its connection so that a player can feel, from
// the network overlay, what prediction and interpolation do on a bad link,
// and so that load tests can play over lossy links without a kernel that
// drops packets.
package conditioner
