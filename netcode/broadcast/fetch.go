//go:build !js

package broadcast

import (
	"context"

	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// HTTPFetch is a Fetch by net/http's default client.
func HTTPFetch(ctx context.Context, url string, limit int) ([]byte, time.Duration, error) {
	b, age, err := httpFetch(ctx, url, limit)
	return b, age, err
}

func httpFetch(ctx context.Context, url string, limit int) ([]byte, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, 0, ErrNotFound
	case resp.StatusCode != http.StatusOK:
		return nil, 0, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		return nil, 0, err
	}
	if len(b) > limit {
		return nil, 0, fmt.Errorf("%w: GET %s: more than %d bytes", ErrTooLarge, url, limit)
	}
	age, _ := strconv.Atoi(resp.Header.Get("Age"))
	return b, time.Duration(age) * time.Second, nil
}

// defaultFetch is a Viewer's Fetch when its config names none.
func defaultFetch() Fetch { return HTTPFetch }
