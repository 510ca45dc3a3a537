//go:build js

package browser

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/sightline-game/sightline/netcode/iceservers"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// postOffer posts the offer's JSON body to url with the page's fetch once
// and returns the answer's SDP or the refusal ([datachan.Response]). When
// ctx ends, the request is aborted.
func postOffer(ctx context.Context, url, token string, body []byte) (string, error) {
	abort, err := construct(js.Global().Get("AbortController"))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrSignalling, err)
	}
	stop := context.AfterFunc(ctx, func() { abort.Call("abort") })
	defer stop()
	headers := map[string]any{"Content-Type": "application/json"}
	if token != "" {
		headers["Authorization"] = "Bearer " + token
	}
	init := map[string]any{
		"method":  "POST",
		"headers": headers,
		"body":    string(body),
		"cache":   "no-store",
		"signal":  abort.Get("signal"),
	}
	promise, err := call(js.Global(), "fetch", url, init)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrSignalling, err)
	}
	resp, err := await(ctx, promise)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrSignalling, err)
	}
	textPromise, err := call(resp, "text")
	if err != nil {
		return "", fmt.Errorf("%w: reading answer: %v", ErrSignalling, err)
	}
	text, err := await(ctx, textPromise)
	if err != nil {
		return "", fmt.Errorf("%w: reading answer: %w", ErrSignalling, err)
	}
	data := stringOr(text)
	if len(data) > datachan.MaxAnswerBytes {
		data = data[:datachan.MaxAnswerBytes]
	}
	status := resp.Get("status").Int()
	statusLine := strings.TrimSpace(strconv.Itoa(status) + " " + stringOr(resp.Get("statusText")))
	retryAfter := stringOr(resp.Get("headers").Call("get", "Retry-After"))
	return datachan.Response(status, statusLine, retryAfter, []byte(data))
}

// fetchICEServers asks url for the ICE servers a game server hands its
// clients (GET, with the join token if any) and returns them; none if the
// server has none, refuses, or cannot be asked (logged at Debug).
func fetchICEServers(ctx context.Context, url, token string, log *slog.Logger) []ICEServer {
	init := map[string]any{"method": "GET", "cache": "no-store"}
	if token != "" {
		init["headers"] = map[string]any{"Authorization": "Bearer " + token}
	}
	promise, err := call(js.Global(), "fetch", url, init)
	if err != nil {
		log.Debug("no ICE servers", "url", url, "err", err)
		return nil
	}
	resp, err := await(ctx, promise)
	if err != nil {
		log.Debug("no ICE servers", "url", url, "err", err)
		return nil
	}
	if status := resp.Get("status").Int(); status != 200 {
		log.Debug("no ICE servers", "url", url, "status", status)
		return nil
	}
	textPromise, err := call(resp, "text")
	if err != nil {
		return nil
	}
	text, err := await(ctx, textPromise)
	if err != nil {
		return nil
	}
	out, err := parseICEServers(stringOr(text))
	if err != nil {
		log.Warn("ICE servers refused", "url", url, "err", err)
	}
	return out
}

// parseICEServers reads the list of ICE servers a game server hands out
// (iceservers.ParseList): none, and the error, if it is refused.
func parseICEServers(text string) ([]ICEServer, error) {
	list, err := iceservers.ParseList([]byte(text))
	if err != nil {
		return nil, err
	}
	out := make([]ICEServer, 0, len(list.ICEServers))
	for _, s := range list.ICEServers {
		out = append(out, ICEServer{URLs: s.URLs, Username: s.Username, Credential: s.Credential})
	}
	return out, nil
}

// selectedPath names the path of the RTCPeerConnection's selected
// candidate pair (datachan.PathName) from its statistics: the transport's
// selectedCandidatePairId, or else the nominated, succeeded pair, and its
// local candidate's type and relayProtocol. "" if the browser does not say.
func (c *conn) selectedPath(ctx context.Context) string {
	promise, err := call(c.pc, "getStats")
	if err != nil {
		return ""
	}
	report, err := await(ctx, promise)
	if err != nil {
		return ""
	}
	byID := map[string]js.Value{}
	var pairID string
	var nominated js.Value
	each := js.FuncOf(func(_ js.Value, args []js.Value) any {
		s := args[0]
		id := stringOr(s.Get("id"))
		byID[id] = s
		switch stringOr(s.Get("type")) {
		case "transport":
			if p := stringOr(s.Get("selectedCandidatePairId")); p != "" {
				pairID = p
			}
		case "candidate-pair":
			if stringOr(s.Get("state")) == "succeeded" && s.Get("nominated").Truthy() && nominated.IsUndefined() {
				nominated = s
			}
		}
		return nil
	})
	defer each.Release()
	report.Call("forEach", each)
	pair, ok := byID[pairID]
	if !ok {
		if nominated.IsUndefined() {
			return ""
		}
		pair = nominated
	}
	local := byID[stringOr(pair.Get("localCandidateId"))]
	remote := byID[stringOr(pair.Get("remoteCandidateId"))]
	if local.IsUndefined() || remote.IsUndefined() {
		return ""
	}
	return datachan.PathName(stringOr(local.Get("candidateType")), stringOr(local.Get("relayProtocol")), stringOr(remote.Get("candidateType")))
}
