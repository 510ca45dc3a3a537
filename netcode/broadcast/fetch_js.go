//go:build js

package broadcast

import (
	"context"
	"errors"
	"time"
)

// defaultFetch is a Viewer's Fetch when its config names none: in the
// browser, which has no net/http here, the caller must pass the page's.
func defaultFetch() Fetch {
	return func(context.Context, string, int) ([]byte, time.Duration, error) {
		return nil, 0, errors.New("broadcast: no Fetch given in the browser")
	}
}
