package xvfbtest

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jezek/xgb"
)

// The programs the tests run, each built once for all the tests into
// binDir.
var (
	binDirOnce sync.Once
	binDir     string
	binDirErr  error
	gameProg   = &program{pkg: "./cmd/game", name: "game"}
	serverProg = &program{pkg: "./cmd/server", name: "server"}
)

// program is one command of the module, built the first time a test asks for it.
type program struct {
	pkg, name string
	once      sync.Once
	path      string
	err       error
}

func TestMain(m *testing.M) {
	// xgb, which the input tests drive Xvfb with, logs through a package
	// variable that its connections read: set it once, before any test
	// connects. Xvfb has no authority file, which it would say each time.
	xgb.Logger = log.New(io.Discard, "", 0)
	// The games these tests run keep their settings and the replays of
	// the matches they host in the config folder: a folder of the tests'
	// own, not the user's (tests that read it set their own).
	cfg, err := os.MkdirTemp("", "xvfbtest-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CONFIG_HOME", cfg)
	code := m.Run()
	os.RemoveAll(cfg)
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// needXvfb returns xvfb-run's path, or skips the test: under -short, or
// without xvfb-run (unless SIGHTLINE_REQUIRE_XVFB=1, when it fails).
func needXvfb(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the window tests build and run the game for several seconds")
	}
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		msg := "xvfb-run not found: apt-get install -y xvfb xauth (make deps installs it)"
		if os.Getenv("SIGHTLINE_REQUIRE_XVFB") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return xvfb
}

// gameBinary builds cmd/game (once) and returns its path.
func gameBinary(t *testing.T) string {
	t.Helper()
	return gameProg.binary(t)
}

// serverBinary builds cmd/server (once) and returns its path.
func serverBinary(t *testing.T) string {
	t.Helper()
	return serverProg.binary(t)
}

// binary builds the program into binDir the first time it is called and
// returns its path.
func (p *program) binary(t *testing.T) string {
	t.Helper()
	root := moduleRoot(t)
	p.once.Do(func() {
		binDirOnce.Do(func() { binDir, binDirErr = os.MkdirTemp("", "sightline-xvfbtest-") })
		if p.err = binDirErr; p.err != nil {
			return
		}
		p.path = filepath.Join(binDir, p.name)
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
		defer cancel()
		build := exec.CommandContext(ctx, goTool(), "build", "-o", p.path, p.pkg)
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			p.err = fmt.Errorf("building %s: %v\n%s", p.pkg, err, out)
		}
	})
	if p.err != nil {
		t.Fatal(p.err)
	}
	return p.path
}

func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "/usr/local/go/bin/go"
}

// saveShot writes a screenshot's bytes where the environment variable env
// says (a path; relative paths are from the module root), if it is set:
// how the tests refresh the pictures in docs/.
func saveShot(t *testing.T, env string, b []byte) {
	t.Helper()
	writeShot(t, os.Getenv(env), b)
}

// saveShotFile is saveShot of the PNG file at path.
func saveShotFile(t *testing.T, env, path string) {
	t.Helper()
	if dst := os.Getenv(env); dst != "" {
		writeShot(t, dst, readShot(t, path))
	}
}

// readShot returns the bytes of the screenshot at path.
func readShot(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeShot writes b to dst (relative paths are from the module root),
// unless dst is empty.
func writeShot(t *testing.T, dst string, b []byte) {
	t.Helper()
	if dst == "" {
		return
	}
	if !filepath.IsAbs(dst) {
		dst = filepath.Join(moduleRoot(t), dst)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot saved to %s", dst)
}
