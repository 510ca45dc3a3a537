package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/game/server/metrics"
	"github.com/sightline-game/sightline/internal/mdtable"
)

// specPath is the protocol's specification, whose counters this test
// holds to the server's.
const specPath = "../../docs/PROTOCOL.md"

var (
	specTick    = regexp.MustCompile("`([^`]+)`")
	specMetric  = regexp.MustCompile("`(sightline_[a-z0-9_]+)")
	specCounter = regexp.MustCompile("`([A-Z][A-Za-z]*(?:\\.[A-Z][A-Za-z]*)?)`")
	specLabel   = regexp.MustCompile(`^(sightline_[a-z0-9_]+)(?:\{([a-z_]+)="([^"]*)"\})?$`)
	sentenceEnd = regexp.MustCompile(`[.;]\s+`)
)

// TestSpecCounters holds PROTOCOL.md's counters to what a host can read:
// every row of its table of counters (§5) is a number in /debug/vars'
// "match" object and a series of /metrics; every sightline_ name the
// document prints anywhere is a metric of /metrics; and every counter a
// sentence says the server counts is a row of the table.
func TestSpecCounters(t *testing.T) {
	doc, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	vars, series, names := serverCounters(t)

	rows := specCounterRows(t, string(doc))
	inTable := map[string]bool{}
	for _, row := range rows {
		path, metric := row[0], row[1]
		inTable[path] = true
		if v, ok := lookup(vars, path); !ok {
			t.Errorf("§5 names %s, which /debug/vars' match object lacks", path)
		} else if _, isNumber := v.(float64); !isNumber {
			t.Errorf("§5 names %s, which /debug/vars has as %T, not a number", path, v)
		}
		m := specLabel.FindStringSubmatch(metric)
		if m == nil {
			t.Errorf("§5's row of %s names %q, not a sightline_ metric", path, metric)
			continue
		}
		if !hasSeries(series, m[1], m[2], m[3]) {
			t.Errorf("§5 names %s for %s, which /metrics lacks", metric, path)
		}
	}

	for _, m := range specMetric.FindAllStringSubmatch(string(doc), -1) {
		if !names[m[1]] {
			t.Errorf("the spec names %s, which /metrics lacks", m[1])
		}
	}

	// A counter named where a sentence says the server counts must be a
	// row of the table, so that it is checked above; an object of the
	// table's paths (Rewind) is no counter.
	for _, para := range strings.Split(string(doc), "\n\n") {
		if strings.HasPrefix(strings.TrimSpace(para), "|") {
			continue
		}
		for _, sen := range sentenceEnd.Split(strings.Join(strings.Fields(para), " "), -1) {
			if !strings.Contains(strings.ToLower(sen), "count") || !strings.Contains(strings.ToLower(sen), "server") {
				continue
			}
			for _, m := range specCounter.FindAllStringSubmatch(sen, -1) {
				name := m[1]
				if strings.HasPrefix(name, "Test") || strings.HasPrefix(name, "Fuzz") || inTable[name] || isObject(vars, name) {
					continue
				}
				t.Errorf("the spec says the server counts %s (%q), which its table of counters (§5) lacks", name, sen)
			}
		}
	}
}

// specCounterRows returns the rows of §5's table of counters: the path in
// /debug/vars' match object and the series of /metrics, code spans
// unquoted.
func specCounterRows(t *testing.T, doc string) [][2]string {
	t.Helper()
	var rows [][2]string
	for _, cells := range mdtable.Rows(doc, "`/debug/vars` `match`", "`/metrics`") {
		if len(cells) < 2 {
			t.Errorf("table of counters: row %q", cells)
			continue
		}
		path, metric := specTick.FindStringSubmatch(cells[0]), specTick.FindStringSubmatch(cells[1])
		if path == nil || metric == nil {
			t.Errorf("table of counters: row %q names no counter", cells)
			continue
		}
		rows = append(rows, [2]string{path[1], metric[1]})
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no table of counters", specPath)
	}
	return rows
}

// serverCounters returns what a host reads of a match that has stepped: the
// match object of /debug/vars, the series of /metrics (a line each, the
// value cut off) and the names /metrics has a type line for.
func serverCounters(t *testing.T) (match map[string]any, series []string, names map[string]bool) {
	t.Helper()
	w, err := arena.NewWorld(arena.Config{Seed: 1, MaxPlayers: 8})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{MaxClients: 8}, server.NewMatch(w))
	if err != nil {
		t.Fatal(err)
	}
	host, err := server.NewHost(server.Hosted{ID: "1", Name: "Match 1", Server: srv})
	if err != nil {
		t.Fatal(err)
	}
	srv.Step(time.Unix(1000, 0))

	rec := httptest.NewRecorder()
	serveVars(func() map[string]any {
		return map[string]any{"match": srv.Stats(), "matches": host.List()}
	}).ServeHTTP(rec, httptest.NewRequest("GET", "/debug/vars", nil))
	var vars struct {
		Match map[string]any `json:"match"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &vars); err != nil || vars.Match == nil {
		t.Fatalf("/debug/vars: %v\n%s", err, rec.Body)
	}

	rec = httptest.NewRecorder()
	metrics.New(metrics.Config{Host: host}).Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	names = map[string]bool{}
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if name, ok := strings.CutPrefix(line, "# TYPE "); ok {
			names[strings.Fields(name)[0]] = true
		} else if line != "" && !strings.HasPrefix(line, "#") {
			series = append(series, line[:strings.LastIndexByte(line, ' ')])
		}
	}
	return vars.Match, series, names
}

// lookup returns the value at path (names joined by dots) in o.
func lookup(o map[string]any, path string) (any, bool) {
	var v any = o
	for _, name := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[name]; !ok {
			return nil, false
		}
	}
	return v, true
}

// isObject reports whether path names an object in o.
func isObject(o map[string]any, path string) bool {
	v, ok := lookup(o, path)
	_, isMap := v.(map[string]any)
	return ok && isMap
}

// hasSeries reports whether series holds one of the metric name, with
// label=value among its labels if label is set.
func hasSeries(series []string, name, label, value string) bool {
	for _, s := range series {
		if !strings.HasPrefix(s, name+"{") && s != name {
			continue
		}
		if label == "" || strings.Contains(s, label+`="`+value+`"`) {
			return true
		}
	}
	return false
}
