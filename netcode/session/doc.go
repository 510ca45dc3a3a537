// Package session is one client's connection as the netcode sees it: the
// Config both ends agree on, the framing of the two datagrams, and the
// client's ClientSession, which decodes snapshots, checks them against the
// server's hash when asked, and sends inputs that carry its newest decoded
// tick. The server's end, which encodes that client's snapshots against its
// acknowledged baseline and takes its inputs and acks, is
// netcode/serversession.
//
// Two small messages frame the traffic:
//
// A snapshot datagram is a flags byte (bit 0: a view hash follows), the
// optional 32-bit hash of the state the packet carries, and the snapshot
// packet of the stream's Format. Sessions that asked for verification get
// the hash on every packet: the client compares it with the hash of what it
// decoded and counts matches.
//
// An input datagram is a flags byte (bit 0: send view hashes), the newest
// snapshot tick the client decoded (its ack), the sequence number of the
// newest input, a count, and that many fixed-size inputs, newest first. Each
// datagram repeats the last few inputs, so a lost one costs nothing while the
// next arrives; the server applies each sequence number once.
//
// A new connection is a new epoch: make new sessions (or Reset both).
package session
