//go:build !js

package webrtc

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/pion/datachannel"
	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// platformConn holds what a native connection needs beyond conn: the
// detached channels and their reading goroutines.
type platformConn struct {
	rwcs    [transport.NumChannels]datachannel.ReadWriteCloser // guarded by conn.mu
	readers sync.WaitGroup
	// delivered, if set (the server's), counts every message read.
	delivered *atomic.Uint64
}

// prepare has nothing to do natively: channels are attached when they open.
func (c *conn) prepare(transport.Channel, *webrtc.DataChannel) error { return nil }

// attach detaches an open channel and starts its reading goroutine.
func (c *conn) attach(ch transport.Channel, dc *webrtc.DataChannel) error {
	rwc, err := dc.Detach()
	if err != nil {
		return err
	}
	c.mu.Lock()
	if c.Closed() {
		c.mu.Unlock()
		_ = rwc.Close()
		return transport.ErrClosed
	}
	c.rwcs[ch] = rwc
	c.readers.Add(1)
	c.mu.Unlock()
	go c.readLoop(ch, rwc)
	return nil
}

// readLoop reads channel ch into one reusable buffer and queues copies.
func (c *conn) readLoop(ch transport.Channel, rwc datachannel.ReadWriteCloser) {
	defer c.readers.Done()
	buf := make([]byte, transport.MaxMessageSize)
	for {
		n, _, err := rwc.ReadDataChannel(buf)
		if err != nil {
			if errors.Is(err, io.ErrShortBuffer) {
				c.Fail(fmt.Errorf("%w: message over %d bytes on %s", transport.ErrTooLarge, transport.MaxMessageSize, ch))
			} else {
				c.Fail(fmt.Errorf("%w: %s channel closed (%v)", ErrPeerGone, ch, err))
			}
			return
		}
		c.Push(ch, buf[:n])
		if c.delivered != nil {
			c.delivered.Add(1)
		}
	}
}

// closePlatform closes the channels (the peer sees stream resets), then the
// PeerConnection, waiting for pion's goroutines and the readers to end.
func (c *conn) closePlatform() {
	c.mu.Lock()
	rwcs := c.rwcs
	c.mu.Unlock()
	for _, rwc := range rwcs {
		if rwc != nil {
			_ = rwc.Close()
		}
	}
	if err := c.pc.GracefulClose(); err != nil {
		c.log.Debug("close peer connection", "err", err)
	}
	c.readers.Wait()
}

// selectedPath names the path of the selected ICE candidate pair
// (datachan.PathName), "" if none is selected. The relay's protocol is only
// in the candidates' statistics.
func (c *conn) selectedPath() string {
	sctp := c.pc.SCTP()
	if sctp == nil || sctp.Transport() == nil || sctp.Transport().ICETransport() == nil {
		return ""
	}
	pair, ok := sctp.Transport().ICETransport().GetSelectedCandidatePairStats()
	if !ok {
		return ""
	}
	report := c.pc.GetStats()
	local, _ := report[pair.LocalCandidateID].(webrtc.ICECandidateStats)
	remote, _ := report[pair.RemoteCandidateID].(webrtc.ICECandidateStats)
	return datachan.PathName(local.CandidateType.String(), local.RelayProtocol, remote.CandidateType.String())
}

// iceProgress reports whether the peer has sent an ICE connectivity check,
// or answered one, on any candidate pair.
func (c *conn) iceProgress() bool {
	for _, st := range c.pc.GetStats() {
		if p, ok := st.(webrtc.ICECandidatePairStats); ok && (p.RequestsReceived > 0 || p.ResponsesReceived > 0) {
			return true
		}
	}
	return false
}

// baseSettingEngine returns the settings both native ends share.
func baseSettingEngine(log *slog.Logger, includeLoopback bool) webrtc.SettingEngine {
	var se webrtc.SettingEngine
	se.DetachDataChannels()
	se.SetIncludeLoopbackCandidate(includeLoopback)
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	se.SetSCTPMaxMessageSize(transport.MaxMessageSize)
	// SCTP doubles its retransmission timeout on every timeout up to 60 s by
	// default: after a two-second outage a game would sit silent for seconds
	// more. Capping it keeps recovery within about a second.
	se.SetSCTPRTOMax(SCTPRTOMax)
	se.LoggerFactory = pionLoggerFactory{log: log}
	return se
}

// newAPI returns a data-channel-only API: no codecs, no interceptors.
func newAPI(se webrtc.SettingEngine) *webrtc.API {
	return webrtc.NewAPI(
		webrtc.WithSettingEngine(se),
		webrtc.WithMediaEngine(&webrtc.MediaEngine{}),
		webrtc.WithInterceptorRegistry(&interceptor.Registry{}),
	)
}

// newClientAPI returns the API a native client dials with.
func newClientAPI(cfg DialConfig, log *slog.Logger) *webrtc.API {
	se := baseSettingEngine(log, cfg.IncludeLoopback)
	if cfg.RelayOnly {
		// Relays are all there is: no better pair is worth waiting for
		// (ICE otherwise holds a relayed pair back 2 s for a direct one).
		se.SetRelayAcceptanceMinWait(0)
	}
	if cfg.SettingEngine != nil {
		cfg.SettingEngine(&se)
	}
	return newAPI(se)
}
