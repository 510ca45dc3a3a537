//go:build js

package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/browser"
)

// Connect opens a player's connection to the match server at baseURL
// through the page's RTCPeerConnection (package transport/browser); the
// native build dials over pion. It returns when the channels are open.
func Connect(ctx context.Context, baseURL string, cfg ConnectConfig) (transport.Conn, error) {
	baseURL = strings.TrimSuffix(baseURL, "/")
	conn, err := browser.Dial(ctx, signalURL(baseURL, cfg.Match, cfg.Watch), browser.Config{
		Version: protocol.Version, Token: cfg.Token, Logger: cfg.Logger,
		ICEServersURL: ICEServersURL(baseURL), RelayOnly: cfg.RelayOnly,
		OnStage: cfg.OnStage, ICETimeout: cfg.ICETimeout, Prepared: cfg.Prepared,
	})
	if err != nil {
		return nil, fmt.Errorf("client: connect to %s: %w", baseURL, err)
	}
	return conn, nil
}
