//go:build !js

package client

import (
	"context"
	"fmt"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// Dial connects to the match server at baseURL (http://host:port) over
// WebRTC (pion, natively; the browser build dials with package
// transport/browser) and returns a client whose channels are open. With
// cfg.Match set it joins that match of the server (SignalURL). Its offer
// speaks protocol.Version unless dial.Version says otherwise.
func Dial(ctx context.Context, baseURL string, cfg Config, dial webrtc.DialConfig) (*Client, error) {
	if dial.Logger == nil {
		dial.Logger = cfg.Logger
	}
	if dial.Version == 0 {
		dial.Version = protocol.Version
	}
	conn, err := webrtc.Dial(ctx, SignalURL(baseURL, cfg.Match), dial)
	if err != nil {
		return nil, fmt.Errorf("client: connect to %s: %w", baseURL, err)
	}
	return New(conn, cfg), nil
}
