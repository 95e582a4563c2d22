package io.aiperf.engine.run;

import io.aiperf.engine.config.LoadType;
import java.util.SplittableRandom;

/**
 * Inter-arrival times of the open loop (AIPerf's timing and load docs): constant {@code 1/rate}, Poisson (exponential with
 * mean {@code 1/rate}), or gamma with shape {@code smoothness} and mean {@code 1/rate}. Not thread-safe: one
 * issuer thread per phase draws from it.
 */
final class ArrivalIntervals implements Arrivals {
    private final LoadType type;
    private final double meanNanos;
    private final double shape;
    private final SplittableRandom random;

    ArrivalIntervals(final LoadType type, final double ratePerSecond, final double smoothness, final long seed) {
        this.type = type;
        this.meanNanos = 1e9 / ratePerSecond;
        this.shape = smoothness;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public double nextNanos() {
        return switch (type) {
            case CONSTANT -> meanNanos;
            case POISSON -> -Math.log(1.0 - random.nextDouble()) * meanNanos;
            case GAMMA -> gamma(shape) / shape * meanNanos;
            case CONCURRENCY -> 0;
            case FIXED_SCHEDULE, USER_CENTRIC -> throw new IllegalStateException(type + " draws no intervals");
        };
    }

    /** Marsaglia and Tsang's method; unit scale. */
    private double gamma(final double k) {
        if (k < 1) {
            return gamma(k + 1) * Math.pow(random.nextDouble(), 1.0 / k);
        }
        final double d = k - 1.0 / 3;
        final double c = 1.0 / Math.sqrt(9 * d);
        while (true) {
            double x;
            double v;
            do {
                x = gaussian();
                v = 1 + c * x;
            } while (v <= 0);
            v = v * v * v;
            final double u = random.nextDouble();
            if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
                return d * v;
            }
        }
    }

    private double gaussian() {
        final double u1 = Math.max(random.nextDouble(), 1e-300);
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
