//go:build !js

package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// maxListBytes bounds the body of GET /matches that ListMatches reads.
const maxListBytes = 1 << 20

// ListMatches asks the match server at baseURL (http://host:port) for its
// matches (GET /matches) with http.DefaultClient. A server that lists
// none, such as a desktop game's hosted match, answers 404: that is
// ErrNoMatchList.
func ListMatches(ctx context.Context, baseURL string) ([]MatchInfo, error) {
	return ListMatchesWith(ctx, http.DefaultClient, baseURL)
}

// ListMatchesWith is ListMatches with the given HTTP client.
func ListMatchesWith(ctx context.Context, hc *http.Client, baseURL string) ([]MatchInfo, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(baseURL, "/")+MatchesPath, nil)
	if err != nil {
		return nil, fmt.Errorf("client: list matches: %w", err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("client: list matches: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxListBytes))
	if err != nil {
		return nil, fmt.Errorf("client: list matches: %w", err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, fmt.Errorf("client: list matches at %s: %w", baseURL, ErrNoMatchList)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("client: list matches at %s: HTTP %s", baseURL, resp.Status)
	}
	var list MatchList
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("client: list matches at %s: %w", baseURL, err)
	}
	return list.Matches, nil
}
