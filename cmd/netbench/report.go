package main

import (
	"fmt"
	"io"
	"strings"
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

// printTable prints the model's table (docs/01-snapshots-and-deltas.md): the document's five shares with no
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

// printArenaReport prints an arena run as text: per client, the formats on
// the same views, then the game's default budget.
func printArenaReport(w io.Writer, r arenaResult, took time.Duration) {
	fmt.Fprintf(w, "arena: %d players (bots), %d creatures at %g Hz for %g s, loss %.0f%% each way (burst %g), RTT %g ms, history %d, seed %d\n",
		r.Players, r.Creatures, r.Hz, r.Seconds, r.Loss*100, r.Burst, r.RTTms, r.History, r.Seed)
	g := r.Game
	fmt.Fprintf(w, "game: %g px world at %g px, heading %d bits; players %g px/s (dash %g), creatures %g px/s, projectiles %g px/s\n",
		g.WorldPx, g.PrecisionPx, g.HeadingBits, g.PlayerSpeedPxS, g.DashSpeedPxS, g.CreatureSpeedPxS, g.ProjectilePxS)
	v := r.View
	fmt.Fprintf(w, "view (radius %g px, margin %g): %.1f entities (%.1f players, %.1f creatures, %.1f projectiles); %.1f enter and %.1f leave a second\n",
		v.ViewRadiusPx, v.ViewMarginPx, v.Entities, v.Players, v.Creatures, v.Projectiles, v.EnteringPerS, v.LeavingPerS)
	m := r.Match
	fmt.Fprintf(w, "match, per minute: %.0f shots, %.1f player deaths, %.1f creatures killed, %.1f pickups, %.1f dashes\n",
		m.ShotsPerMin, m.KillsPerMin, m.CreatureKillsPerMin, m.PickupsPerMin, m.DashesPerMin)
	fmt.Fprintf(w, "per client, every view whole (the same views in every format):\n")
	fmt.Fprintf(w, "%-12s %10s %12s\n", "format", "B/s", "B/packet")
	fmt.Fprintf(w, "%-12s %10.0f %12.1f\n", "full", r.FullBps, r.FullBpp)
	fmt.Fprintf(w, "%-12s %10.0f %12.1f\n", "full+zstd", r.ZstdFullBps, r.ZstdFullBpp)
	fmt.Fprintf(w, "%-12s %10.0f %12.1f\n", "bytemask", r.BytemaskBps, r.BytemaskBpp)
	fmt.Fprintf(w, "%-12s %10.0f %12.1f   (%.2fx bytemask, %.2fx full+zstd)\n", "sightline", r.Bps, r.Bpp, r.Ratio, r.ZstdRatio)
	z := r.Bits
	fmt.Fprintf(w, "where a sightline delta's bits go, mean of %d deltas: header %.1f, removed set %.1f (%.2f entities), new entities %.1f (%.2f: ids and rows), changed set %.1f (%.2f entities), field masks %.1f, residuals %.1f, coding, padding and check %.1f; %.1f in all\n",
		z.Deltas, z.Header, z.Removed, z.RemovedEntities, z.New, z.NewEntities, z.Changed, z.ChangedEntities, z.Masks, z.Residuals, z.Rest, z.Total)
	fmt.Fprintf(w, "the changes' masks and residuals by context: %s; the new entities: %s\n", contextCells(z, true), newCells(z, true))
	b := r.DefaultBudget
	fmt.Fprintf(w, "default budget (%g B/s, %d-byte packets): sightline %.0f B/s (%.0f%% of the above), %.1f B/packet; defers %.0f entity-ticks a second (%.1f%% of those due), longest wait %d ticks, %d lean packets\n",
		b.RateBps, b.PacketCap, b.Bps, b.ShareOfUnlimited*100, b.Bpp, b.DeferredPerS, b.DeferredShare*100, b.MaxDeferralTicks, b.LeanPackets)
	if rp := r.Replay; rp != nil {
		fmt.Fprintf(w, "replay (the broadcast's format: every tick of the whole world, a keyframe every %d ticks): %.0f bytes a minute, %d ticks played back, %d mismatched; the players were sent %.0f bytes a minute in all (the replay is %.2fx that)\n",
			rp.FragmentTicks, rp.BytesPerMin, rp.Ticks, rp.Mismatched, rp.PlayersPerMin, rp.BytesPerMin/rp.PlayersPerMin)
	}
	fmt.Fprintf(w, "ticks %d, decoded %d, mismatched %d (all lanes), differing views %d, mean baseline age %.2f, full fallbacks %d, lost downlink %d (%.1fs to run)\n",
		r.Ticks, r.DecodedTicks, r.MismatchedTicks, r.DifferingViews, r.MeanBaselineAge, r.FullFallbacks, r.DownLost, took.Seconds())
}

// arenaTableRows returns the commands of the table of the game's
// traffic, beside the model at the game's speeds and rate.
func arenaTableRows() [][]string {
	return [][]string{
		{"-traffic", "arena", "-seconds", "120"},
		{"-traffic", "arena", "-seconds", "120", "-loss", "0.1", "-burst", "4"},
		{"-traffic", "arena", "-players", "200", "-seconds", "30"},
		{"-speed", "220", "-hz", "30", "-moving", "0.15"},
		// -start 0.0129: walks of 0.45 s at 30 Hz, as the game's creatures'
		// (the model's own chances are per tick, calibrated at 10 Hz).
		{"-speed", "60", "-hz", "30", "-moving", "0.15", "-start", "0.0129"},
	}
}

// printArenaTable prints the game's table (docs/01-snapshots-and-deltas.md): each row runs its command and
// names it, so that the figures are re-measured by running the table again.
func printArenaTable(w io.Writer) error { return printRows(w, arenaTableRows()) }

func printRows(w io.Writer, rows [][]string) error {
	fmt.Fprintf(w, "| traffic | loss each way | entities per client | full B/s | full+zstd B/s | bytemask B/s | sightline B/s | sightline / bytemask | default budget: sightline B/s, deferred | decoded / mismatched ticks | command |\n")
	fmt.Fprintf(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	type arenaBits struct {
		what string
		bits deltaBits
	}
	var where []arenaBits
	for _, args := range rows {
		c, err := parse(args, io.Discard)
		if err != nil {
			return fmt.Errorf("%q: %w", args, err)
		}
		o := c.o
		loss := "none"
		if o.Loss > 0 {
			loss = fmt.Sprintf("%.0f%%, bursts of %g", o.Loss*100, o.Burst)
		}
		cmd := "`go run ./cmd/netbench " + strings.Join(args, " ") + "`"
		var mismatched int
		if o.Traffic == "arena" {
			r, err := runArena(o)
			if err != nil {
				return err
			}
			b := r.DefaultBudget
			fmt.Fprintf(w, "| arena, %d players, %d creatures, %g s | %s | %.1f | %.0f | %.0f | %.0f | %.0f | %.2f | %.0f, %.1f%% | %d / %d | %s |\n",
				r.Players, r.Creatures, r.Seconds, loss, r.View.Entities, r.FullBps, r.ZstdFullBps, r.BytemaskBps, r.Bps, r.Ratio,
				b.Bps, b.DeferredShare*100, r.DecodedTicks, r.MismatchedTicks+b.MismatchedTicks, cmd)
			mismatched = r.MismatchedTicks
			where = append(where, arenaBits{fmt.Sprintf("arena, %d players, %s", r.Players, loss), r.Bits})
		} else {
			r, err := run(o)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "| model, %g px/s at %g Hz, %.0f%% moving, %g s | %s | %d | %.0f | - | %.0f | %.0f | %.2f | - | %d / %d | %s |\n",
				r.Model.WalkSpeedPxS, r.Hz, r.Moving*100, o.Seconds, loss, r.Entities, r.FullBps, r.BytemaskBps, r.Bps, r.Ratio, r.DecodedTicks, r.MismatchedTicks, cmd)
			mismatched = r.MismatchedTicks
		}
		if mismatched != 0 {
			return fmt.Errorf("%w: %d ticks with %q", errMismatched, mismatched, args)
		}
	}
	if len(where) == 0 {
		return nil
	}
	// Where the bits of the arena rows' sightline deltas go.
	fmt.Fprintf(w, "\n| sightline deltas, bits each (mean) | header | removed set (entities) | new entities: ids and rows (entities) | changed set (entities) | field masks | residuals | coding, padding, check | in all |\n")
	fmt.Fprintf(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, a := range where {
		z := a.bits
		fmt.Fprintf(w, "| %s | %.1f | %.1f (%.2f) | %.1f (%.2f) | %.1f (%.2f) | %.1f | %.1f | %.1f | %.1f |\n",
			a.what, z.Header, z.Removed, z.RemovedEntities, z.New, z.NewEntities, z.Changed, z.ChangedEntities, z.Masks, z.Residuals, z.Rest, z.Total)
	}
	// The changes by context and the new entities by how they were coded.
	fmt.Fprintf(w, "\n| sightline deltas, bits each (mean) |")
	for _, c := range where[0].bits.ByContext {
		fmt.Fprintf(w, " changes of %s (entities) |", c.Context)
	}
	fmt.Fprintf(w, " new entities' ids | rows made by a player (rows) | other new rows (rows) |\n|---|")
	for range where[0].bits.ByContext {
		fmt.Fprintf(w, "---:|")
	}
	fmt.Fprintf(w, "---:|---:|---:|\n")
	for _, a := range where {
		fmt.Fprintf(w, "| %s | %s | %s |\n", a.what, contextCells(a.bits, false), newCells(a.bits, false))
	}
	return nil
}

// contextCells says what each context's changes took: their bits and how
// many; named and joined by commas for a line, else as a table's cells.
func contextCells(z deltaBits, line bool) string {
	cells := make([]string, len(z.ByContext))
	for i, c := range z.ByContext {
		cells[i] = fmt.Sprintf("%.1f (%.2f)", c.Bits, c.Entities)
		if line {
			cells[i] = c.Context + " " + cells[i]
		}
	}
	return joinCells(cells, line)
}

// newCells says where the new entities' bits went: their ids, the rows
// made by a player and the other rows (with how many rows); named and
// joined by commas for a line, else as a table's cells.
func newCells(z deltaBits, line bool) string {
	cells := []string{
		fmt.Sprintf("%.1f", z.NewIDs),
		fmt.Sprintf("%.1f (%.2f)", z.Made, z.MadeEntities),
		fmt.Sprintf("%.1f (%.2f)", z.New-z.NewIDs-z.Made, z.NewEntities-z.MadeEntities),
	}
	if line {
		for i, name := range []string{"ids", "rows made by a player", "other rows"} {
			cells[i] = name + " " + cells[i]
		}
	}
	return joinCells(cells, line)
}

func joinCells(cells []string, line bool) string {
	if line {
		return strings.Join(cells, ", ")
	}
	return strings.Join(cells, " | ")
}
