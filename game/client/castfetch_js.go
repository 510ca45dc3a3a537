//go:build js

package client

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/sightline-game/sightline/netcode/broadcast"
)

// PageFetch is a broadcast.Fetch by the page's own fetch (the browser
// build links no net/http): GET url, at most limit bytes. A Cast in the
// browser uses it unless its config names another.
func PageFetch(ctx context.Context, url string, limit int) ([]byte, error) {
	abort := js.Global().Get("AbortController").New()
	stop := context.AfterFunc(ctx, func() { abort.Call("abort") })
	defer stop()
	resp, err := awaitPromise(js.Global().Call("fetch", url, map[string]any{"signal": abort.Get("signal")}))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	switch status := resp.Get("status").Int(); {
	case status == 404:
		return nil, broadcast.ErrNotFound
	case status != 200:
		return nil, fmt.Errorf("GET %s: %d %s", url, status, resp.Get("statusText").String())
	}
	buf, err := awaitPromise(resp.Call("arrayBuffer"))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	arr := js.Global().Get("Uint8Array").New(buf)
	if n := arr.Get("length").Int(); n > limit {
		return nil, fmt.Errorf("%w: GET %s: %d bytes, at most %d", broadcast.ErrTooLarge, url, n, limit)
	}
	b := make([]byte, arr.Get("length").Int())
	js.CopyBytesToGo(b, arr)
	return b, nil
}

// awaitPromise waits for p to settle (an aborted fetch rejects at once).
func awaitPromise(p js.Value) (js.Value, error) {
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- settled{v: args[0]}
		return nil
	})
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "rejected"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		ch <- settled{err: errors.New(msg)}
		return nil
	})
	defer then.Release()
	defer catch.Release()
	p.Call("then", then, catch)
	s := <-ch
	return s.v, s.err
}

func defaultCastFetch() broadcast.Fetch { return PageFetch }
