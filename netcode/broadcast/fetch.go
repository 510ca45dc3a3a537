//go:build !js

package broadcast

import (
	"context"

	"fmt"
	"io"
	"net/http"
)

// HTTPFetch is a Fetch by net/http's default client.
func HTTPFetch(ctx context.Context, url string, limit int) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, ErrNotFound
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(b) > limit {
		return nil, fmt.Errorf("%w: GET %s: more than %d bytes", ErrTooLarge, url, limit)
	}
	return b, nil
}

// defaultFetch is a Viewer's Fetch when its config names none.
func defaultFetch() Fetch { return HTTPFetch }
