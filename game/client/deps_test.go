//go:build !js

package client_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The browser build talks through the page's fetch and RTCPeerConnection:
// it must not link Go's HTTP and TLS stacks (1.7 MB of game.wasm once
// crept in through a status name) nor pion, the native transport.
func TestBrowserBuildLinksNoNativeNetworkStack(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	goTool, err := exec.LookPath("go") // go test puts its own first on PATH
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "list", "-deps", "./wasm")
	cmd.Dir = root
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps ./wasm listed %d packages: %q", len(deps), deps)
	}
	for _, p := range deps {
		if p == "net/http" || p == "crypto/tls" || strings.HasPrefix(p, "github.com/pion/") {
			t.Errorf("the browser build links %s", p)
		}
	}
}
