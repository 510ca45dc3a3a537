package client

import (
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/events"
)

// A spectator watches a match without playing in it: it joins with
// Config.Watch (POST /signal?watch=1), the server welcomes it as player 0
// with no entity of its own, and its views are chosen as a player's would
// be from the player it follows, or from its free camera. It sends no
// inputs, only acks (SendAck, which Run sends for a spectator).

// Spectating reports whether the server welcomed the client as a
// spectator (false before the welcome).
func (c *Client) Spectating() bool {
	return c.st.welcomed && c.st.welcome.Player == 0
}

// SpectateErr returns ErrNoSpectators once a client that asked to watch was
// welcomed as a player by a server that takes no spectators (the client
// then closed the connection), and nil otherwise.
func (c *Client) SpectateErr() error {
	if c.noSpectators {
		return ErrNoSpectators
	}
	return nil
}

// Watching returns what the server says the spectator's views follow: a
// player (Mode protocol.WatchFollow; Player 0 when nobody is in the match
// to follow) or the free camera (protocol.WatchFree, at X, Y), and false
// before the server said.
func (c *Client) Watching() (protocol.Watch, bool) {
	return c.st.watching, c.st.toldWatch
}

// Follow asks the server to choose the spectator's views from player's
// (0: the leader, the player with the highest score). The server answers
// with a protocol.KindWatch event naming whom it follows (Watching).
func (c *Client) Follow(player uint32) error {
	return c.sendWatch(protocol.Watch{Mode: protocol.WatchFollow, Player: player})
}

// FlyTo asks the server to choose the spectator's views from a free camera
// at x, y (in pixels of the world), clamped to the world.
func (c *Client) FlyTo(x, y float64) error {
	return c.sendWatch(protocol.Watch{Mode: protocol.WatchFree,
		X: protocol.PosQuant.Quantize(x), Y: protocol.PosQuant.Quantize(y)})
}

func (c *Client) sendWatch(w protocol.Watch) error {
	if err := c.st.out.Push(events.Event{Kind: protocol.KindWatch, Body: protocol.AppendWatch(nil, w)}); err != nil {
		return err
	}
	return c.flushEvents()
}
