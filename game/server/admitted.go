package server

import "github.com/sightline-game/sightline/netcode/transport"

// Admitted is who a connection's peer is, as the host admitted it before it
// joined (cmd/server's join tokens: webrtc.ServerConfig.Admit returns one).
// The match names the player Name, whatever name its client asks for.
type Admitted struct {
	// Name is the player's name in the match (cleaned and cut as any).
	Name string
	// Player is the player's id as the host's backend knows it.
	Player uint64
	// TokenID is the id of the join token the peer came with, which the
	// host spends once the peer has joined, or frees if it did not.
	TokenID [16]byte
}

// Admission returns what the host said of conn's peer when it admitted it,
// if it did: a connection whose Admission method returns an Admitted.
func Admission(conn transport.Conn) (Admitted, bool) {
	ac, ok := conn.(interface{ Admission() any })
	if !ok {
		return Admitted{}, false
	}
	a, ok := ac.Admission().(Admitted)
	return a, ok
}
