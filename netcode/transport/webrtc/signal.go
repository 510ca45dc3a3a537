package webrtc

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/pion/sdp/v3"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// sdpMessage is the JSON body of the signalling exchange.
type sdpMessage = datachan.SDPMessage

var errNotOffer = errors.New("not an offer")

// parseOffer reads the body of a signalling request: the JSON of an offer,
// in version of the application's protocol, whose SDP parses. It is checked
// before any peer connection is made for it. The error's text is the reason
// the server answers with.
func parseOffer(body []byte, version int) (string, error) {
	var m sdpMessage
	if err := json.Unmarshal(body, &m); err != nil || m.Type != "offer" {
		return "", errNotOffer
	}
	got := m.Version
	if got == 0 {
		got = 1 // offers named no version before version 2
	}
	if got != version {
		return "", fmt.Errorf("protocol version %d; this server speaks %d", got, version)
	}
	if err := checkSDP(m.SDP); err != nil {
		return "", err
	}
	return m.SDP, nil
}

// parseAnswer reads the body of the server's answer.
func parseAnswer(body []byte) (string, error) {
	answer, err := datachan.AnswerSDP(body)
	if err != nil {
		return "", err
	}
	if err := checkSDP(answer); err != nil {
		return "", err
	}
	return answer, nil
}

// checkSDP reports whether s parses as a session description.
func checkSDP(s string) error {
	if s == "" {
		return errors.New("malformed SDP: empty")
	}
	var d sdp.SessionDescription
	if err := d.UnmarshalString(s); err != nil {
		return fmt.Errorf("malformed SDP: %s", datachan.Shorten(err.Error(), 120))
	}
	return nil
}
