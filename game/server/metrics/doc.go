// Package metrics exports a match server process's counters in the
// Prometheus text format on /metrics (cmd/server serves it on -metrics-addr,
// loopback by default, never on the public address): the matches it hosts (players, bots,
// ticks, tick durations, snapshots and bytes sent, full fallbacks, deferred
// entities, record resends, events, connections ended by cause), its
// signalling (offers, and offers and join tokens refused by reason), and the
// process and Go runtime collectors (CPU, memory, goroutines).
//
// Every name has the sightline_ prefix, counters end in _total and units are
// seconds and bytes, as Prometheus's naming rules ask. Labels stay bounded:
// a match's id, a cause or a reason, never a player. The values are read
// from the servers' own counters when Prometheus scrapes, so nothing is
// counted twice and the tick loop does no extra work.
package metrics
