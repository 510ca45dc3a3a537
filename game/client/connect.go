package client

import "log/slog"

// ConnectConfig says how a player's connection reaches a match server
// (see Connect), the same on every platform.
type ConnectConfig struct {
	// Match names the match to join on a server hosting several; empty
	// lets the server choose.
	Match string
	// Watch joins the match as a spectator (see Config.Watch).
	Watch bool
	// Token is the player's join token, for a server that admits only
	// invited players (cmd/server -token-key); empty: none.
	Token string
	// Logger receives the connection's trouble (nil: slog.Default()).
	Logger *slog.Logger
	// RelayOnly sends every datagram through the TURN relay the server
	// hands out (GET /ice), for testing the relay: a server that hands out
	// none cannot then be reached.
	RelayOnly bool
}
