package io.aiperf.engine.metrics;

/**
 * One metric of a run in display units: a distribution ({@code stats} set) or a single value.
 */
public record MetricValue(MetricSpec spec, Stats stats, Double value) {
    /** The value of {@code stat}; single values answer only "avg" (and "value"). */
    public double get(final String stat) {
        if (stats != null) {
            return stats.get(stat);
        }
        return stat.equals("avg") || stat.equals("value") ? value : Double.NaN;
    }
}
