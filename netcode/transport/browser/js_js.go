//go:build js

package browser

import (
	"context"
	"errors"
	"syscall/js"
)

// call calls v's method and turns a JavaScript exception into an error
// (js.Value.Call panics with it).
func call(v js.Value, method string, args ...any) (res js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r)
		}
	}()
	return v.Call(method, args...), nil
}

// construct calls new on constructor c, turning an exception into an error.
func construct(c js.Value, args ...any) (res js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r)
		}
	}()
	return c.New(args...), nil
}

// panicError turns what a failed JavaScript call panicked with into an error.
func panicError(r any) error {
	var jsErr js.Error
	switch e := r.(type) {
	case js.Error:
		jsErr = e
	case *js.Error:
		jsErr = *e
	case error:
		return e
	default:
		panic(r)
	}
	return errors.New(describe(jsErr.Value))
}

// describe returns "Name: message" of a JavaScript error value, or its
// string form.
func describe(v js.Value) string {
	if v.Type() == js.TypeObject {
		name, msg := v.Get("name"), v.Get("message")
		if name.Type() == js.TypeString && msg.Type() == js.TypeString {
			return name.String() + ": " + msg.String()
		}
	}
	return js.Global().Get("String").Invoke(v).String()
}

// await waits for promise p to settle and returns its value, or its
// rejection as an error. If ctx ends first it returns ctx's error; the
// callbacks are released once p settles.
func await(ctx context.Context, p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	settled := make(chan result, 1) // exactly one of the callbacks runs, once
	resolve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		settled <- result{v: arg0(args)}
		return nil
	})
	reject := js.FuncOf(func(_ js.Value, args []js.Value) any {
		settled <- result{err: errors.New(describe(arg0(args)))}
		return nil
	})
	release := func() {
		resolve.Release()
		reject.Release()
	}
	if _, err := call(p, "then", resolve, reject); err != nil {
		release()
		return js.Undefined(), err
	}
	select {
	case r := <-settled:
		release()
		return r.v, r.err
	case <-ctx.Done():
		go func() {
			<-settled
			release()
		}()
		return js.Undefined(), ctx.Err()
	}
}

func arg0(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// stringOr returns v as a string, or "" when it is null or undefined.
func stringOr(v js.Value) string {
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}
