package clipboard

import (
	"context"
	"fmt"
	"syscall/js"
)

// Write puts text on the clipboard through the Clipboard API
// (navigator.clipboard.writeText), which a page has only in a secure
// context (HTTPS or localhost) and soon after a click or a key.
func Write(ctx context.Context, text string) error {
	_, err := await(ctx, "writeText", text)
	return err
}

// Read returns the text on the clipboard (navigator.clipboard.readText,
// which the browser may ask the player to allow).
func Read(ctx context.Context) (string, error) {
	v, err := await(ctx, "readText")
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

// await calls navigator.clipboard's method with args and waits for the
// promise it returns.
func await(ctx context.Context, method string, args ...any) (js.Value, error) {
	nav := js.Global().Get("navigator")
	cb := js.Undefined()
	if nav.Truthy() {
		cb = nav.Get("clipboard")
	}
	if !cb.Truthy() || cb.Get(method).Type() != js.TypeFunction {
		return js.Undefined(), fmt.Errorf("%w: the page has no Clipboard API (it needs HTTPS or localhost)", ErrUnavailable)
	}
	type result struct {
		v   js.Value
		err error
	}
	done := make(chan result, 1)
	ok := js.FuncOf(func(_ js.Value, a []js.Value) any {
		v := js.Undefined()
		if len(a) > 0 {
			v = a[0]
		}
		done <- result{v: v}
		return nil
	})
	defer ok.Release()
	fail := js.FuncOf(func(_ js.Value, a []js.Value) any {
		msg := "rejected"
		if len(a) > 0 {
			msg = a[0].Call("toString").String()
		}
		done <- result{err: fmt.Errorf("%w: %s", ErrRefused, msg)}
		return nil
	})
	defer fail.Release()
	cb.Call(method, args...).Call("then", ok, fail)
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		return js.Undefined(), fmt.Errorf("%w: %w", ErrRefused, ctx.Err())
	}
}
