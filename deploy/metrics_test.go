package deploy

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The fleet's pod template as far as scraping goes.
type scrapedFleet struct {
	Metadata meta `yaml:"metadata"`
	Spec     struct {
		Template struct {
			Spec struct {
				Ports    []gsPort `yaml:"ports"`
				Template struct {
					Metadata struct {
						Annotations map[string]string `yaml:"annotations"`
					} `yaml:"metadata"`
					Spec struct {
						Containers []container `yaml:"containers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type podMonitor struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Spec       struct {
		Selector struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		} `yaml:"selector"`
		Endpoints []struct {
			Port string `yaml:"port"`
			Path string `yaml:"path"`
		} `yaml:"podMetricsEndpoints"`
	} `yaml:"spec"`
}

type dashboard struct {
	Title  string `json:"title"`
	Panels []struct {
		Title   string `json:"title"`
		Targets []struct {
			Expr string `json:"expr"`
		} `json:"targets"`
	} `json:"panels"`
}

// metricNames are the metric names a PromQL expression reads: the
// identifiers of the server's namespaces (sightline_, process_, go_).
var metricName = regexp.MustCompile(`\b(?:sightline|process|go)_[a-z0-9_]+\b`)

// The scrape configuration finds the servers: the pod annotations and the
// PodMonitor name the container's metrics port, where -metrics-addr has
// cmd/server serve /metrics, and which is none of the GameServer's ports
// that players reach.
func TestScrapeConfiguration(t *testing.T) {
	var f scrapedFleet
	if err := decodeYAML("agones/fleet.yaml", &f); err != nil {
		t.Fatal(err)
	}
	var pm podMonitor
	if err := decodeYAML("prometheus/podmonitor.yaml", &pm); err != nil {
		t.Fatal(err)
	}
	server := f.Spec.Template.Spec.Template.Spec.Containers[0]
	var metricsPort containerPort
	for _, p := range server.Ports {
		if p.Name == "metrics" {
			metricsPort = p
		}
	}
	if metricsPort.ContainerPort == 0 || metricsPort.Protocol != "TCP" {
		t.Fatalf("the server's container has no TCP port named metrics: %+v", server.Ports)
	}
	for _, p := range f.Spec.Template.Spec.Ports {
		if p.ContainerPort == metricsPort.ContainerPort {
			t.Errorf("the metrics port %d is the GameServer's port %q, which players reach", p.ContainerPort, p.Name)
		}
	}
	ann := f.Spec.Template.Spec.Template.Metadata.Annotations
	if ann["prometheus.io/scrape"] != "true" || ann["prometheus.io/path"] != "/metrics" || ann["prometheus.io/port"] != fmt.Sprint(metricsPort.ContainerPort) {
		t.Errorf("pod annotations %v: want scrape true, path /metrics, port %d (the metrics port)", ann, metricsPort.ContainerPort)
	}
	if !slices.Contains(server.Args, fmt.Sprintf("-metrics-addr=:%d", metricsPort.ContainerPort)) {
		t.Errorf("the server's -metrics-addr is not the port %d it is scraped on: %v", metricsPort.ContainerPort, server.Args)
	}
	if pm.Kind != "PodMonitor" || pm.APIVersion != "monitoring.coreos.com/v1" {
		t.Errorf("podmonitor.yaml: %s %s", pm.APIVersion, pm.Kind)
	}
	if got := pm.Spec.Selector.MatchLabels["agones.dev/fleet"]; got != f.Metadata.Name {
		t.Errorf("the PodMonitor selects fleet %q, the Fleet is %q", got, f.Metadata.Name)
	}
	if len(pm.Spec.Endpoints) != 1 || pm.Spec.Endpoints[0].Port != metricsPort.Name || pm.Spec.Endpoints[0].Path != "/metrics" {
		t.Errorf("PodMonitor endpoints %+v: want port %q path /metrics", pm.Spec.Endpoints, metricsPort.Name)
	}
}

// Every query of the Grafana dashboard names metrics a running cmd/server
// exports, with a match and bots playing.
func TestDashboardQueriesExportedMetrics(t *testing.T) {
	b, err := os.ReadFile("grafana/sightline.json")
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("grafana/sightline.json: %v", err)
	}
	wanted := map[string][]string{} // metric: the panels that read it
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			names := metricName.FindAllString(tg.Expr, -1)
			if len(names) == 0 {
				t.Errorf("panel %q: query %q names no metric", p.Title, tg.Expr)
			}
			for _, n := range names {
				wanted[n] = append(wanted[n], p.Title)
			}
		}
	}
	if len(d.Panels) < 10 {
		t.Errorf("the dashboard has %d panels", len(d.Panels))
	}
	exported := scrapeServer(t)
	for name, panels := range wanted {
		if !exported[name] {
			t.Errorf("panels %q read %s, which the server does not export", panels, name)
		}
	}
	t.Logf("%d panels read %d metrics, all exported (of %d series names)", len(d.Panels), len(wanted), len(exported))
}

// scrapeServer runs cmd/server (one match, two bots) on free ports and
// returns the names of the series its /metrics shows once it has ticked.
func scrapeServer(t *testing.T) map[string]bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "server")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "../cmd/server").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/server: %v\n%s", err, out)
	}
	freeAddr := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().String()
	}
	addr, metricsAddr := freeAddr(), freeAddr()
	srv := exec.CommandContext(ctx, bin, "-addr", addr, "-metrics-addr", metricsAddr, "-udp-port", "0", "-bots", "2", "-announce=false", "-web", t.TempDir())
	srv.Stdout, srv.Stderr = io.Discard, io.Discard
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	url := "http://" + metricsAddr + "/metrics"
	for {
		if ctx.Err() != nil {
			t.Fatalf("no ticks on %s before the deadline", url)
		}
		names, ticked := scrapeOnce(url)
		if ticked {
			return names
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// scrapeOnce reads url's series names, and whether the match has ticked.
func scrapeOnce(url string) (map[string]bool, bool) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	names := map[string]bool{}
	ticked := false
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, _ := strings.Cut(line, " ")
		name, _, _ = strings.Cut(name, "{")
		names[name] = true
		if name == "sightline_ticks_total" && !strings.HasSuffix(rest, " 0") && rest != "0" {
			ticked = true
		}
	}
	return names, ticked
}
