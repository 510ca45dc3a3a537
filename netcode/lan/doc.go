// Package lan finds matches on the local network: a host announces its match
// with a small UDP broadcast beacon every second, and a Browser listening on
// the beacon port keeps the list of matches it heard recently.
//
// A beacon names the match, its player count and the HTTP port to join on;
// the address to join is the one the beacon came from, so a spoofed beacon
// can at most point at the machine that sent it. Beacons are parsed as
// hostile input, and nothing joins a match by itself: the player chooses.
package lan
