// Package server runs a match: a fixed-tick loop that takes every client's
// inputs and acks, steps the world once, quantizes it into one snapshot, and
// sends each client a snapshot datagram encoded against the newest tick that
// client acknowledged.
//
// Where one tick goes: Server.Step (tick.go). Clients arrive as
// transport.Conn values from any transport (WebRTC, or the in-memory pair in
// tests) through Add; each gets a serversession.Session. A client that stays
// silent for Config.Timeout is dropped and its resources freed; one that
// reconnects arrives as a new connection and starts a new epoch.
package server
