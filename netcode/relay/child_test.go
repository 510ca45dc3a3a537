package relay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/iceservers"
)

// childEnv names the environment variable that makes the test binary a
// relay child (its value the childConfig, JSON) instead of running tests.
const childEnv = "SIGHTLINE_RELAY_TEST_CHILD"

// childConfig is what a relay child runs.
type childConfig struct {
	SecretFile          string
	NoFile              uint64 // RLIMIT_NOFILE, if not 0
	MaxConnsPerAddr     int
	MaxConns            int
	IdleTimeout         time.Duration
	FirstMessageTimeout time.Duration
}

// childReport is what a relay child answers on each line of its stdin.
type childReport struct {
	UDP, TCP   string
	Stats      Stats
	HeapInuse  uint64 // runtime.MemStats after a GC
	StackInuse uint64
}

func TestMain(m *testing.M) {
	if cfg := os.Getenv(childEnv); cfg != "" {
		if err := runChild(cfg); err != nil {
			fmt.Fprintln(os.Stderr, "relay child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runChild runs a relay as cfg says, and reports on it for each line read
// from stdin until stdin ends.
func runChild(text string) error {
	var cc childConfig
	if err := json.Unmarshal([]byte(text), &cc); err != nil {
		return err
	}
	if cc.NoFile != 0 {
		lim := syscall.Rlimit{Cur: cc.NoFile, Max: cc.NoFile}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			return err
		}
	}
	secret, err := iceservers.LoadSecret(cc.SecretFile)
	if err != nil {
		return err
	}
	s, err := New(Config{
		Addr:                "127.0.0.1:0",
		Secret:              secret,
		RelayBind:           netip.MustParseAddr("127.0.0.1"),
		AllowPeers:          loopbackOnly,
		MaxConnsPerAddr:     cc.MaxConnsPerAddr,
		MaxConns:            cc.MaxConns,
		IdleTimeout:         cc.IdleTimeout,
		FirstMessageTimeout: cc.FirstMessageTimeout,
		Logger:              slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})),
	})
	if err != nil {
		return err
	}
	defer s.Close()
	enc := json.NewEncoder(os.Stdout)
	in := bufio.NewScanner(os.Stdin)
	for {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if err := enc.Encode(childReport{
			UDP: s.Addr().String(), TCP: s.TCPAddr().String(), Stats: s.Stats(),
			HeapInuse: ms.HeapInuse, StackInuse: ms.StackInuse,
		}); err != nil {
			return err
		}
		if !in.Scan() {
			return nil
		}
	}
}

// relayChild is a relay running in a child process.
type relayChild struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *json.Decoder
	secret iceservers.Secret
	first  childReport
}

// startChild runs a relay child with cc (its secret made here).
func startChild(t *testing.T, cc childConfig) *relayChild {
	t.Helper()
	secret := newSecret(t)
	cc.SecretFile = filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(cc.SecretFile, []byte(secret.String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	text, err := json.Marshal(cc)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(text))
	cmd.Stderr = &logTail{t: t}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &relayChild{cmd: cmd, in: in, out: json.NewDecoder(out), secret: secret}
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("relay child: %v", err)
			}
		case <-time.After(2 * time.Minute): // a hang guard
			cmd.Process.Kill()
			<-done
			t.Error("relay child did not stop")
		}
	})
	if err := c.out.Decode(&c.first); err != nil {
		t.Fatalf("relay child: %v", err)
	}
	return c
}

// report asks the child for its state now.
func (c *relayChild) report(t *testing.T) childReport {
	t.Helper()
	if _, err := io.WriteString(c.in, "\n"); err != nil {
		t.Fatal(err)
	}
	var r childReport
	if err := c.out.Decode(&r); err != nil {
		t.Fatalf("relay child: %v", err)
	}
	return r
}

// rss is the child's resident set size, from /proc.
func (c *relayChild) rss(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmRSS:" && f[2] == "kB" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc status")
	return 0
}

// logTail passes a child's stderr to the test's log.
type logTail struct{ t *testing.T }

func (l *logTail) Write(p []byte) (int, error) {
	l.t.Logf("relay child: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
