package io.aiperf.engine.profile;

import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.convergence.ConvergenceSpec;
import io.aiperf.engine.search.SearchSpec;

/**
 * Combinations of a config with a capacity search or convergence that cannot run, said before any traffic (and by
 * {@code aiperf config expand}, which prints no config profile would refuse).
 */
public final class ConfigChecks {
    private ConfigChecks() {
    }

    /** A search runs one cell per point: no sweep, no trials, and every point's config must load. */
    public static void searchable(final BenchmarkConfig config, final SearchSpec search, final ConfigSource configs) {
        if (config.isSweep() || config.multiRun().numRuns() > 1) {
            throw new ConfigException("--search-space", "a capacity search runs one cell per point; remove the "
                    + "sweep and --num-profile-runs");
        }
        if (!search.goodput().isEmpty() && configs.givesGoodput()) {
            throw new ConfigException("--goodput", "--search-recipe max-goodput-under-slo sets the per-request SLOs "
                    + "from --ttft-sla-ms, --tpot-sla-ms and --e2e-sla-ms; remove --goodput");
        }
        configs.at(search, search.min());
        configs.at(search, search.max());
        if (search.pooling().equals(SearchSpec.POOLING_POOLED) && config.artifacts().exportLevel().equals("summary")) {
            throw new ConfigException("--search-percentile-pooling", "pooled reads every trial's requests: it needs "
                    + "--export-level records or raw");
        }
    }

    /**
     * Whether the run can converge: its trials are the most ({@code --num-profile-runs} above 1, or a search point's
     * {@code --search-trials-max}), one configuration (a sweep's points would need upstream's independent order),
     * all its cells, and distribution mode has the per-request records.
     *
     * @throws ConfigException naming the option in the way
     */
    public static void convergent(final ConvergenceSpec spec, final BenchmarkConfig config, final boolean search,
                           final boolean someCells) {
        if (spec == null) {
            return;
        }
        if (spec.mode().equals(ConvergenceSpec.DISTRIBUTION) && config.artifacts().exportLevel().equals("summary")) {
            throw new ConfigException("--convergence-mode", "distribution compares the trials' requests: it needs "
                    + "--export-level records or raw");
        }
        if (search) {
            return;
        }
        if (config.isSweep()) {
            throw new ConfigException("--convergence-metric", "converges the trials of one configuration; a sweep's "
                    + "points are not supported (run each point on its own, or use a capacity search)");
        }
        if (config.multiRun().numRuns() < 2) {
            throw new ConfigException("--convergence-metric", "stops repeated trials early: give the most of them "
                    + "with --num-profile-runs (2-10)");
        }
        if (someCells) {
            throw new ConfigException("--cell", "convergence decides which trials run; run them all");
        }
    }
}
