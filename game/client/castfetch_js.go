//go:build js

package client

import (
	"context"
	"errors"
	"time"

	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/transport/browser"
)

// PageFetch is a broadcast.Fetch by the page's own fetch
// (browser.GetBytes: the browser build links no net/http). A Cast in the
// browser uses it unless its config names another.
func PageFetch(ctx context.Context, url string, limit int) ([]byte, time.Duration, error) {
	b, age, err := browser.GetBytes(ctx, url, limit)
	if errors.Is(err, browser.ErrNotFound) {
		err = broadcast.ErrNotFound
	}
	return b, age, err
}

func defaultCastFetch() broadcast.Fetch { return PageFetch }
