//go:build !js

package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// Connect opens a player's connection to the match server at baseURL
// (http://host:port, or an invite link of a rendezvous, which forwards to
// a host behind NAT): natively over pion, with loopback candidates so that
// a match hosted on this machine can be joined, and the STUN and TURN
// servers the server hands out (GET /ice); the browser build dials through
// the page's RTCPeerConnection instead. It returns when the channels are
// open.
func Connect(ctx context.Context, baseURL string, cfg ConnectConfig) (transport.Conn, error) {
	return connect(ctx, signalURL(baseURL, cfg.Match, cfg.Watch), webrtc.DialConfig{
		IncludeLoopback: true, Token: cfg.Token, Logger: cfg.Logger,
		ICEServersURL: ICEServersURL(baseURL), RelayOnly: cfg.RelayOnly,
		OnStage: cfg.OnStage, ICETimeout: cfg.ICETimeout,
	})
}

// Dial connects a headless client to the match server at baseURL over
// WebRTC with dial's transport options and returns it with its channels
// open. With cfg.Match set it joins that match of the server (SignalURL).
// Its offer speaks protocol.Version unless dial.Version says otherwise.
func Dial(ctx context.Context, baseURL string, cfg Config, dial webrtc.DialConfig) (*Client, error) {
	if dial.Logger == nil {
		dial.Logger = cfg.Logger
	}
	conn, err := connect(ctx, signalURL(baseURL, cfg.Match, cfg.Watch), dial)
	if err != nil {
		return nil, err
	}
	return New(conn, cfg), nil
}

func connect(ctx context.Context, signal string, dial webrtc.DialConfig) (transport.Conn, error) {
	if dial.Version == 0 {
		dial.Version = protocol.Version
	}
	conn, err := webrtc.Dial(ctx, signal, dial)
	if err != nil {
		return nil, fmt.Errorf("client: connect to %s: %w", strings.TrimSuffix(signal, SignalPath), err)
	}
	return conn, nil
}
