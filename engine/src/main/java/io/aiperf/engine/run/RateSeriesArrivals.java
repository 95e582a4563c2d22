package io.aiperf.engine.run;

import io.aiperf.engine.config.LoadType;
import io.aiperf.engine.config.RateSeries;

/**
 * Arrivals whose rate follows a {@link RateSeries} ({@code --request-rate-series}): each interval is drawn at rate 1
 * from the phase's arrival pattern (constant, Poisson, gamma) and mapped through the series' cumulative rate, so a
 * Poisson pattern is a Poisson process of the series' rate and a constant one spaces arrivals evenly in expected
 * arrivals. The mapping starts from where the schedule actually is, so a re-anchored schedule stays on the series.
 */
final class RateSeriesArrivals implements Arrivals {
    private final RateSeries series;
    private final ArrivalIntervals unit;

    RateSeriesArrivals(final RateSeries series, final LoadType type, final double smoothness, final long seed) {
        this.series = series;
        this.unit = new ArrivalIntervals(type, 1.0, smoothness, seed);
    }

    @Override
    public double nextNanos() {
        return nextNanos(0);
    }

    @Override
    public double nextNanos(final double offsetNanos) {
        final double from = offsetNanos / 1e9;
        final double draw = unit.nextNanos() / 1e9; // in expected arrivals
        return (series.timeOf(series.arrivalsBy(from) + draw) - from) * 1e9;
    }

    @Override
    public double meanRate(final double fromOffsetNanos, final double toOffsetNanos) {
        final double a = fromOffsetNanos / 1e9;
        final double b = toOffsetNanos / 1e9;
        return b > a ? (series.arrivalsBy(b) - series.arrivalsBy(a)) / (b - a) : series.rateAt(a);
    }
}
