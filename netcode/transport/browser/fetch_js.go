//go:build js

package browser

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"syscall/js"

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
