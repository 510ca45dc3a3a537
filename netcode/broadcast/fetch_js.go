//go:build js

package broadcast

import (
	"context"
	"errors"
)

// defaultFetch is a Viewer's Fetch when its config names none: in the
// browser, which has no net/http here, the caller must pass the page's.
func defaultFetch() Fetch {
	return func(context.Context, string, int) ([]byte, error) {
		return nil, errors.New("broadcast: no Fetch given in the browser")
	}
}
