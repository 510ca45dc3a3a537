package main

import (
	"fmt"
	"io"
	"time"
)

func printReport(w io.Writer, o options, r result, took time.Duration) {
	fmt.Fprintf(w, "%d entities at %g Hz for %g s, %.0f%% moving (a=%.4f), loss %.0f%% each way (burst %g), RTT %g ms, history %d, seed %d\n",
		r.Entities, r.Hz, o.Seconds, r.Moving*100, r.Start, r.Loss*100, r.Burst, r.RTTms, r.History, r.Seed)
	fmt.Fprintf(w, "model: %g px world at %g px, heading %d bits, walk %g px/s, turns up to %g deg/s on %.0f%% of ticks\n",
		r.Model.WorldPx, r.Model.PrecisionPx, r.Model.HeadingBits, r.Model.WalkSpeedPxS, r.Model.TurnRateDegS, r.Model.TurnChance*100)
	fmt.Fprintf(w, "%-10s %10s %12s\n", "format", "B/s", "B/packet")
	fmt.Fprintf(w, "%-10s %10.0f %12.1f\n", "full", r.FullBps, r.FullBpp)
	fmt.Fprintf(w, "%-10s %10.0f %12.1f\n", "bytemask", r.BytemaskBps, r.BytemaskBpp)
	fmt.Fprintf(w, "%-10s %10.0f %12.1f   (%.2fx bytemask)\n", "sightline", r.Bps, r.Bpp, r.Ratio)
	fmt.Fprintf(w, "ticks %d, decoded %d, mismatched %d, mean baseline age %.2f, full fallbacks %d, lost downlink %d (%.1fs to run)\n",
		r.Ticks, r.DecodedTicks, r.MismatchedTicks, r.MeanBaselineAge, r.FullFallbacks, r.DownLost, took.Seconds())
}

// printTable prints the README's table: the document's five shares with no
// loss, then 15% moving with 10% bursty loss both ways.
func printTable(w io.Writer, o options) error {
	type row struct {
		moving, loss, burst float64
	}
	rows := []row{{0.05, 0, 1}, {0.15, 0, 1}, {0.30, 0, 1}, {0.60, 0, 1}, {1, 0, 1}, {0.15, 0.10, 4}}
	reference := map[float64]float64{0.05: 582, 0.15: 1312, 0.30: 2398, 0.60: 4589, 1: 6223}
	fmt.Fprintf(w, "| moving | loss each way | full B/s | bytemask B/s (document) | sightline B/s | sightline / bytemask | decoded / mismatched ticks |\n")
	fmt.Fprintf(w, "|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, rw := range rows {
		o.Moving, o.Loss, o.Burst, o.Start = rw.moving, rw.loss, rw.burst, 0
		r, err := run(o)
		if err != nil {
			return err
		}
		doc := "-"
		if rw.loss == 0 {
			if ref, ok := reference[rw.moving]; ok && o.Entities == 100 && o.Hz == 10 {
				doc = fmt.Sprintf("%.0f", ref)
			}
		}
		loss := "none"
		if rw.loss > 0 {
			loss = fmt.Sprintf("%.0f%%, bursts of %g", rw.loss*100, rw.burst)
		}
		fmt.Fprintf(w, "| %.0f%% | %s | %.0f | %.0f (%s) | %.0f | %.2f | %d / %d |\n",
			rw.moving*100, loss, r.FullBps, r.BytemaskBps, doc, r.Bps, r.Ratio, r.DecodedTicks, r.MismatchedTicks)
		if r.MismatchedTicks != 0 {
			return fmt.Errorf("%d mismatched ticks at %.0f%% moving", r.MismatchedTicks, rw.moving*100)
		}
	}
	return nil
}
