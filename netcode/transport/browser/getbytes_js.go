//go:build js

package browser

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"syscall/js"
	"time"
)

// ErrNotFound is GetBytes's error for a 404.
var ErrNotFound = errors.New("browser: not found")

// GetBytes gets url's body with the page's fetch: at most limit bytes
// (more is an error, read no further than the length the response
// declares), and its age as a cache said it (the Age header). A 404 is
// ErrNotFound; another status than 200 an error naming it. When ctx ends
// the request is aborted. It is how a browser viewer fetches a broadcast's
// chunks or a replay file (netcode/broadcast's Fetch).
func GetBytes(ctx context.Context, url string, limit int) ([]byte, time.Duration, error) {
	abort, err := construct(js.Global().Get("AbortController"))
	if err != nil {
		return nil, 0, err
	}
	stop := context.AfterFunc(ctx, func() { abort.Call("abort") })
	defer stop()
	promise, err := call(js.Global(), "fetch", url, map[string]any{"method": "GET", "signal": abort.Get("signal")})
	if err != nil {
		return nil, 0, err
	}
	resp, err := await(ctx, promise)
	if err != nil {
		return nil, 0, fmt.Errorf("GET %s: %w", url, err)
	}
	switch status := resp.Get("status").Int(); status {
	case 200:
	case 404:
		return nil, 0, ErrNotFound
	default:
		return nil, 0, fmt.Errorf("GET %s: %d %s", url, status, stringOr(resp.Get("statusText")))
	}
	headers := resp.Get("headers")
	if n, err := strconv.Atoi(stringOr(headers.Call("get", "Content-Length"))); err == nil && n > limit {
		abort.Call("abort")
		return nil, 0, fmt.Errorf("GET %s: %d bytes, at most %d", url, n, limit)
	}
	bufPromise, err := call(resp, "arrayBuffer")
	if err != nil {
		return nil, 0, err
	}
	buf, err := await(ctx, bufPromise)
	if err != nil {
		return nil, 0, fmt.Errorf("GET %s: %w", url, err)
	}
	n := buf.Get("byteLength").Int()
	if n > limit {
		return nil, 0, fmt.Errorf("GET %s: %d bytes, at most %d", url, n, limit)
	}
	b := make([]byte, n)
	js.CopyBytesToGo(b, js.Global().Get("Uint8Array").New(buf))
	age, _ := strconv.Atoi(stringOr(headers.Call("get", "Age")))
	return b, time.Duration(age) * time.Second, nil
}
