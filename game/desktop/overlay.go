package desktop

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/game/desktop/hudlayout"
	"github.com/sightline-game/sightline/game/desktop/netgraph"
	"github.com/sightline-game/sightline/game/desktop/text"
	"github.com/sightline-game/sightline/netcode/transport"
)

// The overlay panel, on the left under the status panel: at least ovMinW
// wide, wider when its rows need it.
const (
	ovX, ovY = 12.0, 86.0
	ovMinW   = 372.0
	ovPad    = 12.0
	chartH   = 70.0
)

var (
	colBarDelta = color.RGBA{0x4f, 0xc3, 0xf7, 0xff}
	colBarFull  = color.RGBA{0xff, 0x9f, 0x43, 0xff}
	colBarRef   = color.RGBA{0x4a, 0x54, 0x66, 0xff}
)

// drawOverlay draws the network overlay (F3): the link's numbers, a bar
// chart of the last snapshots against a full snapshot's size, and the link
// conditioner's settings with their keys.
func (g *Game) drawOverlay(dst *ebiten.Image, now time.Time) {
	f := g.fonts
	n := &g.net
	st := g.cl.Stats()
	rows := []string{}
	add := func(format string, args ...any) { rows = append(rows, fmt.Sprintf(format, args...)) }

	ping := "—"
	if rtt, ok := n.rtt.Value(); ok {
		ping = fmt.Sprintf("%d ms", rtt.Milliseconds())
	}
	base := "full"
	if !n.full {
		base = fmt.Sprintf("%d ticks (%d ms)", n.baseline, (time.Duration(n.baseline) * n.tickDur).Milliseconds())
	}
	tick, _ := g.cl.Newest()
	add("tick %-7d %3.0f fps %3.0f tps  input rtt %s", tick, ebiten.ActualFPS(), ebiten.ActualTPS(), ping)
	add("inputs ahead of server %d", n.ahead)
	add("snapshot loss %4.1f %%   baseline age %s", n.loss.Share()*100, base)
	add("down %6.2f kB/s   up %5.2f kB/s   path %s", n.down.PerSecond()/1000, n.up.PerSecond()/1000, pathText(st.Conn.Path))
	size, full := n.history.Mean()
	saved := 0.0
	if full > 0 {
		saved = 100 * (1 - size/full)
	}
	add("packet %4d B  full %4d B  (mean %.0f / %.0f, -%0.f %%)", g.cl.PacketSize(), g.cl.FullLen(), size, full, saved)
	add("entities in view %d   world draws %d", n.entities, g.drawn.Draws)
	add("matches server %d of %d   desyncs %d", st.Matched, st.Verified, st.Mismatched)
	add("interp delay %d ms   jitter %d ms", g.interp.Delay().Milliseconds(), g.interp.Jitter().Milliseconds())
	if g.pred != nil {
		ex, ey := g.pred.Error()
		shots := ""
		if g.fired != nil {
			st := g.fired.Stats()
			shots = fmt.Sprintf("   shots seen %d/%d", st.Confirmed, st.Fired)
		}
		add("prediction error %.1f px%s", math.Hypot(ex, ey), shots)
	}
	if l := g.killcamOverlayLine(); l != "" {
		add("%s", l)
	}

	var cond []string
	if g.cfg.Conditioner != nil {
		c := g.cfg.Conditioner.Conditions()
		runs := "independent"
		if c.BurstLen > 1 {
			runs = fmt.Sprintf("runs of %.0f", c.BurstLen)
		}
		cond = []string{
			fmt.Sprintf("[1/2] loss    +%3.0f %%", c.Loss*100),
			fmt.Sprintf("[3/4] latency +%3d ms   [0] reset", c.Latency.Milliseconds()),
			fmt.Sprintf("[5/6] jitter  +%3d ms", c.Jitter.Milliseconds()),
			"[7/8] losses  " + runs,
		}
	}
	// The panel fits its widest row.
	ovW := hudlayout.PanelWidth(rows, f.mono.metrics, ovMinW, ovPad)
	ovW = hudlayout.PanelWidth(cond, f.mono.metrics, ovW, ovPad)
	lineH := 17.0
	condRows := 0
	if len(cond) > 0 {
		condRows = 1 + len(cond)
	}
	h := 34 + float64(len(rows))*lineH + chartH + 30 + float64(condRows)*lineH + 10
	panel(dst, ovX, ovY, ovW, h)
	drawText(dst, "NETWORK  (F3)", f.normal, ovX+12, ovY+8, text.AlignStart, colAccent)
	y := ovY + 32
	for _, r := range rows {
		drawText(dst, r, f.mono, ovX+12, y, text.AlignStart, colText)
		y += lineH
	}
	y += 6
	g.drawChart(dst, ovX+12, y, ovW-24, chartH)
	y += chartH + 4
	lx := ovX + 12
	for _, k := range []struct {
		c color.RGBA
		s string
	}{{colBarDelta, "delta"}, {colBarFull, "full"}, {colBarRef, "a full snapshot's size"}} {
		box(dst, lx, y+4, 10, 10, k.c)
		drawText(dst, k.s, f.small, lx+14, y, text.AlignStart, colTextDim)
		lx += 14 + textWidth(k.s, f.small) + 14
	}
	y += 22
	if len(cond) > 0 {
		drawText(dst, "LINK CONDITIONER (both ways)", f.small, ovX+12, y, text.AlignStart, colAccent)
		for _, r := range cond {
			y += lineH
			drawText(dst, r, f.mono, ovX+12, y, text.AlignStart, colText)
		}
	}
}

// drawChart draws one bar per snapshot (newest right): its size, blue for a
// delta and orange for a full one, with the size a full snapshot of the same
// view would have had as a grey bar behind.
func (g *Game) drawChart(dst *ebiten.Image, x, y, w, h float64) {
	hist := &g.net.history
	box(dst, x, y, w, h, colBarBg)
	top := float64(hist.Max())
	bw := w / netgraph.HistoryLen
	for i := range hist.Len() {
		s := hist.At(i)
		bx := x + w - float64(hist.Len()-i)*bw
		fh := h * float64(s.Full) / top
		box(dst, bx, y+h-fh, max(bw-0.5, 1), fh, colBarRef)
		sh := h * float64(s.Size) / top
		c := colBarDelta
		if !s.Delta {
			c = colBarFull
		}
		box(dst, bx, y+h-sh, max(bw-0.5, 1), sh, c)
	}
	drawText(dst, fmt.Sprintf("%d B", int(top)), g.fonts.small, x+w-4, y+2, text.AlignEnd, colTextDim)
}

// pathText says which network path the connection took (transport.Stats.Path):
// direct to the server's address (host), through a NAT's mapping (prflx,
// srflx), or through a TURN relay over UDP, TCP or TLS; "local" for the
// in-process match, "…" while it is not known yet.
func pathText(path string) string {
	switch path {
	case "":
		return "…"
	case transport.PathMemory:
		return "local"
	}
	return path
}
