package testnet

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pion/webrtc/v4"
)

// BlackHole is a match server's HTTP side whose UDP never gets through: it
// answers every offer with a real answer (pion's, fingerprint and all)
// whose only ICE candidate is a UDP socket on 127.0.0.1 that reads and
// drops everything, as a server behind a firewall that blocks UDP would.
// A client's connectivity checks then get no reply and ICE fails.
type BlackHole struct {
	URL     string // http://127.0.0.1:PORT, the server's base address
	UDPPort int    // the candidate's port, where every datagram is dropped
	// Signal answers offers (any POST) so: for a test that mounts it on a
	// server of its own, beside a page.
	Signal  http.Handler
	dropped atomic.Uint64
}

// Dropped counts the datagrams the black hole swallowed.
func (b *BlackHole) Dropped() uint64 { return b.dropped.Load() }

// NewBlackHole starts a BlackHole; it stops when the test ends. GET /ice
// answers 404 (no ICE servers), every POST an offer.
func NewBlackHole(t testing.TB) *BlackHole {
	t.Helper()
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &BlackHole{UDPPort: udp.LocalAddr().(*net.UDPAddr).Port}
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := udp.ReadFrom(buf); err != nil {
				return
			}
			b.dropped.Add(1)
		}
	}()
	b.Signal = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var offer struct{ SDP string }
		if err := json.Unmarshal(body, &offer); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		sdp, err := b.answer(offer.SDP)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"type": "answer", "sdp": sdp})
	})
	hs := httptest.NewServer(b.Signal)
	b.URL = hs.URL
	t.Cleanup(func() {
		hs.Close()
		udp.Close()
	})
	return b
}

// answer makes pion's answer to offer with no candidates of its own, adds
// the black hole's, and closes the peer connection: nothing on this side
// ever answers a check.
func (b *BlackHole) answer(offer string) (string, error) {
	var se webrtc.SettingEngine
	se.SetIPFilter(func(net.IP) bool { return false }) // gather nothing
	api := webrtc.NewAPI(webrtc.WithSettingEngine(se))
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return "", err
	}
	defer pc.Close()
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		return "", err
	}
	answer, err := pc.CreateAnswer(nil)
	if err != nil {
		return "", err
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(answer); err != nil {
		return "", err
	}
	<-gathered
	sdp := strings.TrimRight(pc.LocalDescription().SDP, "\r\n")
	sdp += fmt.Sprintf("\r\na=candidate:1 1 udp 2130706431 127.0.0.1 %d typ host\r\na=end-of-candidates\r\n", b.UDPPort)
	return sdp, nil
}
