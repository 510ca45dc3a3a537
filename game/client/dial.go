//go:build !js

package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// Dial connects to the match server at baseURL (http://host:port) over
// WebRTC (pion, natively; the browser build dials with package
// transport/browser) and returns a client whose channels are open.
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
