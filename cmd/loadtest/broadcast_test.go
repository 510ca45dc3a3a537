package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/testnet"
)

// nginxCache runs nginx (Debian's nginx-light, which make deps installs) as
// a caching reverse proxy in front of origin, and returns its base URL. It
// stops when the test ends.
func nginxCache(t *testing.T, origin string) string {
	t.Helper()
	exe, err := exec.LookPath("nginx")
	if err != nil {
		for _, p := range []string{"/usr/sbin/nginx", "/sbin/nginx"} {
			if _, serr := os.Stat(p); serr == nil {
				exe, err = p, nil
			}
		}
	}
	if err != nil {
		t.Fatal("nginx is not installed: run `make deps` (as root it installs nginx-light)")
	}
	dir := t.TempDir()
	for _, d := range []string{"cache", "tmp", "logs"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	port := testnet.FreePort(t, "tcp")
	user := "" // nginx run as root hands its workers to nobody, who cannot read the test's directory
	if os.Geteuid() == 0 {
		user = "user root;"
	}
	// The deploy example, with this test's origin, port and cache directory.
	example, err := os.ReadFile(filepath.Join("..", "..", "deploy", "nginx", "broadcast.conf"))
	if err != nil {
		t.Fatal(err)
	}
	site := string(example)
	for _, r := range []struct{ from, to string }{
		{"server 127.0.0.1:8080;", "server " + strings.TrimPrefix(origin, "http://") + ";"},
		{"listen 80;", fmt.Sprintf("listen 127.0.0.1:%d;", port)},
		{"/var/cache/nginx/sightline ", dir + "/cache "},
	} {
		if !strings.Contains(site, r.from) {
			t.Fatalf("deploy/nginx/broadcast.conf has no %q to point at the test's", r.from)
		}
		site = strings.Replace(site, r.from, r.to, 1)
	}
	conf := fmt.Sprintf(`daemon off;
%[3]s
worker_processes 1;
error_log %[1]s/logs/error.log warn;
pid %[1]s/nginx.pid;
events { worker_connections 2048; }
http {
	access_log off;
	client_body_temp_path %[1]s/tmp/body;
	proxy_temp_path %[1]s/tmp/proxy;
	fastcgi_temp_path %[1]s/tmp/fastcgi;
	uwsgi_temp_path %[1]s/tmp/uwsgi;
	scgi_temp_path %[1]s/tmp/scgi;
%[2]s
}
`, dir, site, user)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-c", confPath, "-p", dir)
	out, err := os.Create(filepath.Join(dir, "logs", "stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, "logs", "error.log"))
			t.Logf("nginx error log:\n%s", b)
		}
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get(base + "/broadcast/1/index.json")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx did not proxy the broadcast's index: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Through nginx as a cache in front of a match's broadcast, 200 viewers
// decode and verify every tick they get, and the origin serves each chunk
// once, whatever the number of viewers.
func TestBroadcastThroughACache(t *testing.T) {
	dir := t.TempDir()
	srvExe := build(t, dir, "github.com/sightline-game/sightline/cmd/server")
	base := startServer(t, srvExe, "-bots", "8", "-broadcast", "-broadcast-delay", "2s", "-announce=false")
	cache := nginxCache(t, base)
	metrics := metricsURL(base, isLocalIP)
	// Wait for the first fragment to be published: 3 s of play, 2 s held.
	ctx := context.Background()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if vars, ok := originVars(ctx, viewersOptions{MetricsURL: metrics}); ok && vars.Broadcast["1"].Held >= 3 && vars.Match != nil && vars.Match.Tick > 180 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server published no fragment")
		}
		time.Sleep(200 * time.Millisecond)
	}
	// SIGHTLINE_BROADCAST_VIEWERS=N measures with N viewers instead (how
	// many this machine holds); the suite runs 200.
	viewers := 200
	if n, err := strconv.Atoi(os.Getenv("SIGHTLINE_BROADCAST_VIEWERS")); err == nil && n > 0 {
		viewers = n
	}
	r := watchBroadcast(ctx, viewersOptions{URL: cache + "/broadcast/1/", Viewers: viewers, Seconds: 12, MetricsURL: metrics, Match: "1"})
	t.Logf("figure broadcast-cache: %s", formatViewers(r))
	// How many parts the viewers took is reported, not checked: a viewer
	// that a busy machine put behind catches up by whole fragments.
	if r.Started != viewers || r.Failed != 0 || r.Mismatched != 0 || r.Ticks < uint64(viewers)*90 {
		t.Fatalf("%d of %d viewers started, %d failed (%s), %d ticks decoded, %d mismatched, %d parts taken",
			r.Started, viewers, r.Failed, r.FirstError, r.Ticks, r.Mismatched, r.Parts)
	}
	if !r.OriginKnown || r.OriginMaxServedEach != 1 || r.OriginChunksServed == 0 {
		t.Fatalf("the origin served %d chunks, one of them %d times (counters read: %v): the cache did not fan them out",
			r.OriginChunksServed, r.OriginMaxServedEach, r.OriginKnown)
	}
	if r.ViewerBytes < 50*r.OriginBytes {
		t.Fatalf("viewers fetched %d bytes, the origin sent %d", r.ViewerBytes, r.OriginBytes)
	}
	if !strings.HasPrefix(cache, "http://127.0.0.1:") {
		t.Fatal(cache)
	}
}
