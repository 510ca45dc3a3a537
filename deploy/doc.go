// Package deploy holds how a host runs fleets of Sightline match servers on
// an existing orchestrator, Agones on Kubernetes: the container image
// (Dockerfile) and the Agones manifests (agones/fleet.yaml,
// agones/autoscaler.yaml, agones/allocation.yaml), how Prometheus scrapes
// the servers' GET /metrics (the Fleet's pod annotations, and
// prometheus/podmonitor.yaml for the Prometheus Operator), a Grafana
// dashboard of those metrics (grafana/sightline.json), and nginx as a cache
// in front of a match's broadcast (nginx/broadcast.conf, which cmd/loadtest's
// TestBroadcastThroughACache runs 200 viewers through).
//
// The package has no code of its own. Its tests parse the manifests and the
// Dockerfile and check that they agree with each other and with cmd/server:
// the ports the Fleet opens are the ones the server's flags bind and the
// image exposes, the WebRTC port is UDP and the same inside and outside the
// pod, the health period leaves room for the server's health calls, the
// image runs as a non-root user and the server is built without cgo, and
// every flag the manifests pass exists in cmd/server and parses. The
// scrape configuration names the container's metrics port (-metrics-addr,
// none of the GameServer's ports that players reach) and /metrics, and every
// query of the dashboard names a metric that a running cmd/server, built and
// scraped by the test, really exports.
package deploy
