package io.aiperf.engine.validity;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The warn and invalid thresholds of each check, by name: the defaults, overridden per check by the rules file's
 * {@code validity} section. Immutable.
 */
public final class Thresholds {
    /** A check's two thresholds; NaN means never. */
    public record Limits(double warn, double invalid) {
    }

    private static final Map<String, Limits> DEFAULTS = defaultLimits();
    private final Map<String, Limits> limits;

    private Thresholds(final Map<String, Limits> limits) {
        this.limits = limits;
    }

    private static Map<String, Limits> defaultLimits() {
        final Map<String, Limits> d = new LinkedHashMap<>();
        d.put(Validity.ERROR_SHARE, new Limits(5, 20)); // % of requests that failed
        d.put(Validity.ACHIEVED_RATE, new Limits(95, 90)); // % of the asked-for open-loop rate (lower is worse)
        d.put(Validity.SCHEDULE_LAG, new Limits(10, 100)); // ms, p99 lateness of open-loop sends
        d.put(Validity.POOL_WAIT, new Limits(10, 100)); // ms, p99 wait for a connection
        d.put(Validity.CLIENT_WAKEUP, new Limits(5, Double.NaN)); // ms, p99 oversleep of a 5 ms timer
        d.put(Validity.ABANDONED, new Limits(1, Double.NaN)); // requests cut off by the grace period
        d.put(Validity.TOKEN_MISMATCH, new Limits(10, Double.NaN)); // % between server and client output counts
        d.put(Validity.OSL_SHORTFALL, new Limits(5, 20)); // % of the asked-for output not delivered (ignore_eos)
        d.put(Validity.SAMPLE_SIZE, new Limits(Double.NaN, Double.NaN)); // judged per percentile, see Validity
        d.put(Validity.WARM_CACHE, new Limits(1, Double.NaN)); // 1: a prefix-sharing dataset ran without a reset
        d.put(Validity.SHARD_START, new Limits(50, 1000)); // ms between the earliest and latest shard start
        d.put(Validity.SHARD_CLOCK, new Limits(1500, 5000)); // ms between shards' clock offsets (1 s resolution)
        return d;
    }

    public static Thresholds defaults() {
        return new Thresholds(DEFAULTS);
    }

    /** The defaults with these checks' thresholds replaced. */
    public static Thresholds with(final Map<String, Limits> overrides) {
        final Map<String, Limits> m = new LinkedHashMap<>(DEFAULTS);
        m.putAll(overrides);
        return new Thresholds(m);
    }

    public static java.util.Set<String> names() {
        return DEFAULTS.keySet();
    }

    public Limits of(final String check) {
        return limits.get(check);
    }
}
