package io.aiperf.engine.metrics;

/**
 * One metric of a run in display units: a distribution ({@code stats} set) or a single value.
 *
 * @param adjusted the error-adjusted statistics ({@code adj_min} and the finite ones of {@code adj_p1} ...
 *                 {@code adj_p99}) of the metrics that have them, when some request failed (upstream 0.13 writes
 *                 them as an {@code adj_<tag>} block then); empty otherwise
 */
public record MetricValue(MetricSpec spec, Stats stats, Double value, java.util.Map<String, Double> adjusted) {
    public MetricValue(final MetricSpec spec, final Stats stats, final Double value) {
        this(spec, stats, value, java.util.Map.of());
    }

    /** The value of {@code stat}; single values answer only "avg" (and "value"). */
    public double get(final String stat) {
        if (stats != null) {
            return stats.get(stat);
        }
        return stat.equals("avg") || stat.equals("value") ? value : Double.NaN;
    }
}
