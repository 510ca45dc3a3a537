package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// SignalPath is where a match server takes WebRTC offers.
const SignalPath = "/signal"

// Dial connects to the match server at baseURL (http://host:port) over
// WebRTC and returns a client whose channels are open.
func Dial(ctx context.Context, baseURL string, cfg Config, dial webrtc.DialConfig) (*Client, error) {
	if dial.Logger == nil {
		dial.Logger = cfg.Logger
	}
	conn, err := webrtc.Dial(ctx, strings.TrimSuffix(baseURL, "/")+SignalPath, dial)
	if err != nil {
		return nil, fmt.Errorf("client: connect to %s: %w", baseURL, err)
	}
	return New(conn, cfg), nil
}
