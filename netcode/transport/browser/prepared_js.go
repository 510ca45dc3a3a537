//go:build js

package browser

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"syscall/js"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
)

// prepared is a connection the page began (see the package doc, Prepared
// by the page), once Dial has checked it: a peer connection with its offer
// set and its four channels, and how many ICE servers its list gave.
type prepared struct {
	pc      js.Value
	chans   [transport.NumChannels]js.Value
	fetched int
	// candidates counts the local candidates the page saw gathered, the
	// last at lastCandidate.
	candidates    int
	lastCandidate time.Time
}

// errNotAsDialed says why a connection the page prepared is not taken.
var errNotAsDialed = errors.New("not as Dial would make it")

// takePrepared asks the page for the connection it prepared and returns
// it if it is exactly what Dial would make with cfg; ok is false when
// there is none to take (what was there and not taken is closed).
func takePrepared(ctx context.Context, cfg Config, log *slog.Logger) (p prepared, ok bool) {
	if cfg.Prepared == "" || js.Global().Get(cfg.Prepared).Type() != js.TypeFunction {
		return prepared{}, false
	}
	promise, err := call(js.Global(), cfg.Prepared)
	if err != nil || promise.Type() != js.TypeObject {
		return prepared{}, false // taken before, or none
	}
	v, err := await(ctx, promise)
	if err != nil {
		log.Debug("the page's connection failed", "err", err)
		return prepared{}, false
	}
	p, err = checkPrepared(v, cfg)
	if err != nil {
		log.Warn("the page's connection is not taken", "err", err)
		if v.Type() == js.TypeObject {
			v.Set("refused", err.Error())
			if pc := v.Get("pc"); pc.Type() == js.TypeObject {
				call(pc, "close")
			}
		}
		return prepared{}, false
	}
	v.Set("taken", true)
	return p, true
}

// checkPrepared checks what the page handed over (see the package doc)
// against what Dial would make with cfg.
func checkPrepared(v js.Value, cfg Config) (prepared, error) {
	if v.Type() != js.TypeObject {
		return prepared{}, fmt.Errorf("%w: %s, not an object", errNotAsDialed, describe(v))
	}
	if got := stringOr(v.Get("iceURL")); got != cfg.ICEServersURL {
		return prepared{}, fmt.Errorf("%w: ICE servers asked of %q, not %q", errNotAsDialed, got, cfg.ICEServersURL)
	}
	if stringOr(v.Get("token")) != cfg.Token {
		return prepared{}, fmt.Errorf("%w: another join token", errNotAsDialed)
	}
	servers := slices.Clone(cfg.ICEServers)
	var fetched []ICEServer
	if text := stringOr(v.Get("iceText")); cfg.ICEServersURL != "" && text != "" {
		fetched, _ = parseICEServers(text) // refused: none, as Dial's own fetch
		servers = append(servers, fetched...)
	}
	pc := v.Get("pc")
	if pc.Type() != js.TypeObject || pc.Get("getConfiguration").Type() != js.TypeFunction {
		return prepared{}, fmt.Errorf("%w: no RTCPeerConnection", errNotAsDialed)
	}
	if st := stringOr(pc.Get("signalingState")); st != "have-local-offer" {
		return prepared{}, fmt.Errorf("%w: signalling state %q", errNotAsDialed, st)
	}
	conf, err := call(pc, "getConfiguration")
	if err != nil {
		return prepared{}, fmt.Errorf("%w: %v", errNotAsDialed, err)
	}
	if relay := stringOr(conf.Get("iceTransportPolicy")) == "relay"; relay != cfg.RelayOnly {
		return prepared{}, fmt.Errorf("%w: relay only %v", errNotAsDialed, relay)
	}
	if err := sameServers(conf.Get("iceServers"), servers); err != nil {
		return prepared{}, fmt.Errorf("%w: %w", errNotAsDialed, err)
	}
	p := prepared{pc: pc, fetched: len(fetched)}
	if n, at := v.Get("candidates"), v.Get("candidateMs"); n.Type() == js.TypeNumber && n.Int() > 0 && at.Type() == js.TypeNumber {
		// The page's clock: ms since navigation.
		ago := js.Global().Get("performance").Call("now").Float() - at.Float()
		p.candidates, p.lastCandidate = n.Int(), time.Now().Add(-time.Duration(max(ago, 0)*float64(time.Millisecond)))
	}
	chans := v.Get("channels")
	if chans.Type() != js.TypeObject || chans.Length() != transport.NumChannels {
		return prepared{}, fmt.Errorf("%w: not %d channels", errNotAsDialed, transport.NumChannels)
	}
	for ch := range transport.Channel(transport.NumChannels) {
		dc := chans.Index(int(ch))
		if dc.Type() != js.TypeObject {
			return prepared{}, fmt.Errorf("%w: channel %d is %s", errNotAsDialed, ch, describe(dc))
		}
		label, state := stringOr(dc.Get("label")), stringOr(dc.Get("readyState"))
		ordered := dc.Get("ordered").Truthy()
		retransmits := dc.Get("maxRetransmits")
		var want bool
		if ch.Reliable() {
			want = ordered && retransmits.IsNull()
		} else {
			want = !ordered && retransmits.Type() == js.TypeNumber && retransmits.Int() == 0
		}
		if label != ch.String() || state != "connecting" || !want {
			return prepared{}, fmt.Errorf("%w: channel %d is %q (%s, ordered %v, maxRetransmits %s), want %q as %v", errNotAsDialed,
				ch, label, state, ordered, describe(retransmits), ch.String(), channelInit(ch))
		}
		p.chans[ch] = dc
	}
	return p, nil
}

// sameServers reports whether a peer connection's iceServers are want, in
// order, each with the same URLs, username and credential.
func sameServers(got js.Value, want []ICEServer) error {
	if got.Type() != js.TypeObject || got.Length() != len(want) {
		return fmt.Errorf("ICE servers %s, want %d", describe(got), len(want))
	}
	for i, w := range want {
		g := got.Index(i)
		urls := g.Get("urls")
		var gotURLs []string
		if urls.Type() == js.TypeString {
			gotURLs = []string{urls.String()}
		} else if urls.Type() == js.TypeObject {
			for j := range urls.Length() {
				gotURLs = append(gotURLs, stringOr(urls.Index(j)))
			}
		}
		if !slices.Equal(gotURLs, w.URLs) || stringOr(g.Get("username")) != w.Username || stringOr(g.Get("credential")) != w.Credential {
			return fmt.Errorf("ICE server %d is %q, want %q", i, gotURLs, w.URLs)
		}
	}
	return nil
}
