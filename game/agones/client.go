package agones

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"
)

// DefaultHTTPPort is the SDK sidecar's REST port when AGONES_SDK_HTTP_PORT
// is not set.
const DefaultHTTPPort = 9358

// PlayersLabel is the GameServer label that carries the player count.
const PlayersLabel = "players"

// Config configures a Client. The zero value is usable: every field has a
// default.
type Config struct {
	// BaseURL is the SDK sidecar's address (default from BaseURLFromEnv).
	BaseURL string
	// HTTP makes the calls (default: a client with a 5 s timeout on
	// single calls; the watch uses the same transport without a timeout).
	HTTP *http.Client
	// Logger receives retries and failures (default slog.Default()).
	Logger *slog.Logger
	// HealthPeriod is the time between health pings (default 2 s).
	HealthPeriod time.Duration
	// StartDeadline bounds the retries of calls made while the sidecar
	// may still be starting (default 30 s).
	StartDeadline time.Duration
	// RetryMin and RetryMax bound the exponential backoff between retries
	// (defaults 100 ms and 5 s).
	RetryMin, RetryMax time.Duration
	// PlayerPeriod is how often Lifecycle samples the player count
	// (default 1 s).
	PlayerPeriod time.Duration
}

// BaseURLFromEnv returns the sidecar's base URL from AGONES_SDK_HTTP_PORT
// as read by getenv, or the default port when it is unset.
func BaseURLFromEnv(getenv func(string) string) string {
	port := getenv("AGONES_SDK_HTTP_PORT")
	if port == "" {
		port = strconv.Itoa(DefaultHTTPPort)
	}
	return "http://localhost:" + port
}

func (c Config) withDefaults() Config {
	if c.BaseURL == "" {
		c.BaseURL = "http://localhost:" + strconv.Itoa(DefaultHTTPPort)
	}
	if c.HTTP == nil {
		c.HTTP = &http.Client{Timeout: 5 * time.Second}
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.HealthPeriod <= 0 {
		c.HealthPeriod = 2 * time.Second
	}
	if c.StartDeadline <= 0 {
		c.StartDeadline = 30 * time.Second
	}
	if c.RetryMin <= 0 {
		c.RetryMin = 100 * time.Millisecond
	}
	if c.RetryMax < c.RetryMin {
		c.RetryMax = max(5*time.Second, c.RetryMin)
	}
	if c.PlayerPeriod <= 0 {
		c.PlayerPeriod = time.Second
	}
	return c
}

// GameServer is the part of Agones' GameServer resource the match uses.
type GameServer struct {
	ObjectMeta ObjectMeta `json:"object_meta"`
	Status     Status     `json:"status"`
}

// ObjectMeta holds the GameServer's labels and annotations.
type ObjectMeta struct {
	Name        string            `json:"name,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// Status is the GameServer's state and public address.
type Status struct {
	State   string `json:"state"`
	Address string `json:"address"`
	Ports   []Port `json:"ports,omitempty"`
}

// Port is one of the GameServer's public ports.
type Port struct {
	Name string `json:"name"`
	Port int    `json:"port"`
}

// StateAllocated is the state of a GameServer handed to a match.
const StateAllocated = "Allocated"

// Client calls the Agones SDK sidecar's REST interface.
type Client struct {
	cfg Config
}

// New returns a Client for cfg.
func New(cfg Config) *Client { return &Client{cfg: cfg.withDefaults()} }

// Config returns the client's configuration with defaults filled in.
func (c *Client) Config() Config { return c.cfg }

// Ready marks the GameServer Ready, retrying until the start deadline.
func (c *Client) Ready(ctx context.Context) error {
	return c.retry(ctx, "ready", func() error { return c.post(ctx, "/ready", struct{}{}) })
}

// Health sends one health ping.
func (c *Client) Health(ctx context.Context) error { return c.post(ctx, "/health", struct{}{}) }

// Shutdown asks Agones to shut the GameServer down, retrying until the
// start deadline.
func (c *Client) Shutdown(ctx context.Context) error {
	return c.retry(ctx, "shutdown", func() error { return c.post(ctx, "/shutdown", struct{}{}) })
}

// SetPlayers reports the player count as the label PlayersLabel.
func (c *Client) SetPlayers(ctx context.Context, n int) error {
	return c.do(ctx, http.MethodPut, "/metadata/label", map[string]string{"key": PlayersLabel, "value": strconv.Itoa(n)}, nil)
}

// GameServer returns the current GameServer.
func (c *Client) GameServer(ctx context.Context) (GameServer, error) {
	var gs GameServer
	err := c.do(ctx, http.MethodGet, "/gameserver", nil, &gs)
	return gs, err
}

// WaitGameServer returns the current GameServer, retrying until the start
// deadline while the sidecar is not answering (for reading the public
// address before the server's sockets are set up).
func (c *Client) WaitGameServer(ctx context.Context) (GameServer, error) {
	var gs GameServer
	err := c.retry(ctx, "gameserver", func() (err error) {
		gs, err = c.GameServer(ctx)
		return err
	})
	return gs, err
}

// Watch calls fn with every GameServer the sidecar streams until the
// stream ends or ctx is done; it returns ctx's error or why the stream
// ended.
func (c *Client) Watch(ctx context.Context, fn func(GameServer)) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.BaseURL+"/watch/gameserver", nil)
	if err != nil {
		return fmt.Errorf("agones: watch: %w", err)
	}
	hc := *c.cfg.HTTP
	hc.Timeout = 0
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("agones: watch: %w", err)
	}
	defer resp.Body.Close()
	if err := statusErr(resp); err != nil {
		return fmt.Errorf("agones: watch: %w", err)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var msg struct {
			Result GameServer `json:"result"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			return fmt.Errorf("agones: watch: %w", err)
		}
		fn(msg.Result)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("agones: watch: %w", err)
	}
	return fmt.Errorf("agones: watch: %w", io.ErrUnexpectedEOF)
}

func (c *Client) post(ctx context.Context, path string, body any) error {
	return c.do(ctx, http.MethodPost, path, body, nil)
}

func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("agones: %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.cfg.BaseURL+path, rd)
	if err != nil {
		return fmt.Errorf("agones: %s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.cfg.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("agones: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	if err := statusErr(resp); err != nil {
		return fmt.Errorf("agones: %s %s: %w", method, path, err)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return fmt.Errorf("agones: %s %s: %w", method, path, err)
		}
	}
	return nil
}

func statusErr(resp *http.Response) error {
	switch {
	case resp.StatusCode >= 500:
		return fmt.Errorf("%w: %s", ErrStatus, resp.Status)
	case resp.StatusCode >= 400:
		return fmt.Errorf("%w: %s", ErrRejected, resp.Status)
	}
	return nil
}

// retry runs op until it succeeds, is rejected, ctx is done, or the start
// deadline passes, sleeping an exponentially growing backoff between tries.
func (c *Client) retry(ctx context.Context, what string, op func() error) error {
	start := time.Now()
	wait := c.cfg.RetryMin
	for try := 1; ; try++ {
		err := op()
		if err == nil || errors.Is(err, ErrRejected) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Since(start)+wait > c.cfg.StartDeadline {
			return fmt.Errorf("%w: %s: %d tries in %v: %w", ErrSidecarUnavailable, what, try, time.Since(start), err)
		}
		c.cfg.Logger.Warn("agones: sidecar not answering, retrying", "call", what, "try", try, "backoff", wait, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, c.cfg.RetryMax)
	}
}
