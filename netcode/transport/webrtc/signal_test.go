package webrtc

import (
	"encoding/json"
	"strings"
	"testing"
)

const minimalSDP = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n"

func TestParseOffer(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       string // the SDP, or the error's text
		ok         bool
	}{
		{"offer", `{"type":"offer","sdp":"` + jsonSDP(minimalSDP) + `","version":5}`, minimalSDP, true},
		{"offer without a version (1)", `{"type":"offer","sdp":"` + jsonSDP(minimalSDP) + `"}`, "protocol version 1; this server speaks 5", false},
		{"answer", `{"type":"answer","sdp":"` + jsonSDP(minimalSDP) + `"}`, "not an offer", false},
		{"not JSON", "hello", "not an offer", false},
		{"version 4", `{"type":"offer","sdp":"v=0","version":4}`, "protocol version 4; this server speaks 5", false},
		{"version 6", `{"type":"offer","sdp":"v=0","version":6}`, "protocol version 6; this server speaks 5", false},
		{"empty SDP", `{"type":"offer","sdp":"","version":5}`, "malformed SDP: ", false},
		{"broken SDP", `{"type":"offer","sdp":"v=0\r\nthis is not sdp\r\n","version":5}`, "malformed SDP: ", false},
	} {
		sdp, err := parseOffer([]byte(tc.body), testVersion)
		switch {
		case tc.ok && (err != nil || sdp != tc.want):
			t.Errorf("%s: got %q, %v", tc.name, sdp, err)
		case !tc.ok && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: got %q, %v; want the error %q", tc.name, sdp, err, tc.want)
		}
	}
}

func jsonSDP(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// FuzzParseOffer feeds the server's signalling body parser anything: it
// never panics, refuses with one of its reasons, and what it accepts goes
// through a second encode and parse unchanged.
func FuzzParseOffer(f *testing.F) {
	f.Add([]byte(`{"type":"offer","sdp":"` + jsonSDP(minimalSDP) + `","version":5}`))
	f.Add([]byte(`{"type":"offer","sdp":"v=0\r\nthis is not sdp\r\n"}`))
	f.Add([]byte(`{"type":"offer","sdp":"v=0","version":5}`))
	f.Add([]byte(`{"type":"answer"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		sdp, err := parseOffer(body, testVersion)
		if err != nil {
			msg := err.Error()
			if sdp != "" || !(msg == "not an offer" || strings.HasPrefix(msg, "protocol version ") || strings.HasPrefix(msg, "malformed SDP: ")) {
				t.Fatalf("refused with %q (SDP %q)", msg, sdp)
			}
			return
		}
		again, _ := json.Marshal(sdpMessage{Type: "offer", SDP: sdp, Version: testVersion})
		if sdp2, err := parseOffer(again, testVersion); err != nil || sdp2 != sdp {
			t.Fatalf("accepted %q, but its encoding parses as %q, %v", sdp, sdp2, err)
		}
	})
}

// FuzzParseAnswer does the same for the client's parser of the answer.
func FuzzParseAnswer(f *testing.F) {
	f.Add([]byte(`{"type":"answer","sdp":"` + jsonSDP(minimalSDP) + `"}`))
	f.Add([]byte(`{"type":"answer","sdp":""}`))
	f.Add([]byte(`{"type":"offer","sdp":"v=0"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		sdp, err := parseAnswer(body)
		if err != nil {
			if sdp != "" {
				t.Fatalf("refused with %v but returned %q", err, sdp)
			}
			return
		}
		again, _ := json.Marshal(sdpMessage{Type: "answer", SDP: sdp})
		if sdp2, err := parseAnswer(again); err != nil || sdp2 != sdp {
			t.Fatalf("accepted %q, but its encoding parses as %q, %v", sdp, sdp2, err)
		}
	})
}
