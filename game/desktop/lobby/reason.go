package lobby

import (
	"context"
	"errors"
)

// Reason returns the gist of why a join failed, for the menu's error line:
// the innermost cause ("connection refused"), with a timeout or a
// cancellation said plainly. The log keeps the whole error.
func Reason(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer in time"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	inner := err
	for {
		next := errors.Unwrap(inner)
		if next == nil || next.Error() == "" {
			break
		}
		inner = next
	}
	return inner.Error()
}
