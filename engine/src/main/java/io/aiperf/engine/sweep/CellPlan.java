package io.aiperf.engine.sweep;

import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.MultiRunConfig;
import io.aiperf.engine.config.Variation;
import io.aiperf.engine.record.CellIdentity;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The cells of a configuration in run order: trials outer, sweep points inner (AIPerf's "repeated" order: every
 * point sees the same drift), or with {@code --parameter-sweep-mode independent} each point's trials in a row. Ids and directories depend only on the config, so they are the same on every
 * machine and in every run. Layout: {@code <label>/} for a sweep, {@code profile_runs/run_NNNN/} for trials,
 * {@code profile_runs/trial_NNNN/<label>/} for both, the run directory itself for a single cell. Stateless.
 */
public final class CellPlan {
    /** One cell: who it is, and the config it runs (before the per-trial seed and warmup adjustments). */
    public record Cell(CellIdentity identity, Variation variation) {
    }

    private CellPlan() {
    }

    public static List<Cell> of(final BenchmarkConfig config) {
        final MultiRunConfig multi = config.multiRun();
        final List<Cell> cells = new ArrayList<>();
        if (multi.numRuns() == 1 && !config.isSweep()) {
            cells.add(new Cell(new CellIdentity(0, CellIdentity.SINGLE, ".", null, Map.of(), 1, 1,
                    multi.confidenceLevel(), multi.cooldownSeconds()), null));
            return cells;
        }
        if (!config.isSweep()) {
            for (int t = 1; t <= multi.numRuns(); t++) {
                final String label = String.format(Locale.ROOT, "run_%04d", t);
                cells.add(new Cell(identity(cells.size(), label, "profile_runs/" + label, null, t, multi), null));
            }
            return cells;
        }
        // repeated: trials outer (every point sees the same drift); independent: each point's trials together
        final int outer = multi.independentOrder() ? config.variations().size() : multi.numRuns();
        final int inner = multi.independentOrder() ? multi.numRuns() : config.variations().size();
        for (int o = 0; o < outer; o++) {
            for (int i = 0; i < inner; i++) {
                final int t = (multi.independentOrder() ? i : o) + 1;
                final Variation v = config.variations().get(multi.independentOrder() ? o : i);
                final String trialDir = String.format(Locale.ROOT, "trial_%04d", t);
                final String id = multi.numRuns() == 1 ? v.label() : trialDir + "/" + v.label();
                final String path = multi.numRuns() == 1 ? v.label() : "profile_runs/" + trialDir + "/" + v.label();
                cells.add(new Cell(identity(cells.size(), id, path, v, t, multi), v));
            }
        }
        return cells;
    }

    /** The ids, in run order ({@code aiperf config expand --cells}). */
    public static List<String> ids(final BenchmarkConfig config) {
        return of(config).stream().map(c -> c.identity().id()).toList();
    }

    /**
     * The cells whose ids are selected, in run order; all of them when the selection is empty.
     *
     * @throws ConfigException naming the unknown ids and the valid ones
     */
    public static List<Cell> select(final BenchmarkConfig config, final List<String> selected) {
        final List<Cell> all = of(config);
        if (selected == null || selected.isEmpty()) {
            return all;
        }
        final Set<String> wanted = new LinkedHashSet<>(selected);
        final Set<String> unknown = new LinkedHashSet<>(wanted);
        all.forEach(c -> unknown.remove(c.identity().id()));
        if (!unknown.isEmpty()) {
            throw new ConfigException("--cell", "unknown cell id(s) " + String.join(", ", unknown)
                    + "; this config has: " + String.join(", ", ids(config)));
        }
        return all.stream().filter(c -> wanted.contains(c.identity().id())).toList();
    }

    private static CellIdentity identity(final int index, final String id, final String path, final Variation v,
                                         final int trial, final MultiRunConfig multi) {
        return new CellIdentity(index, id, path, v == null ? null : v.label(), v == null ? Map.of() : v.values(),
                trial, multi.numRuns(), multi.confidenceLevel(), multi.cooldownSeconds(), v == null ? 0 : v.index());
    }
}
