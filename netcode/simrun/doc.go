// Package simrun runs snapshot streams end to end through the link
// simulator, in simulated time, and checks the client against the server on
// every tick it decodes.
//
// One Run steps one world and feeds the same snapshots to one stream per
// wire format, each over its own pair of simulated links seeded alike, so
// that the formats are measured on the same traffic and the same losses.
// The client acknowledges its newest decoded tick every tick, on the uplink.
//
// A stream may also run the classic mistake, diffing against the last packet
// sent and applying it to the client's newest state, to show that it corrupts
// the client where acknowledged baselines do not.
package simrun
