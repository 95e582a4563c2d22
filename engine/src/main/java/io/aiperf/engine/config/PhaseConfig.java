package io.aiperf.engine.config;

/**
 * One phase of a cell (AIPerf's configuration docs and AIPerf's timing and load docs). Durations in seconds; nulls mean "not set".
 *
 * @param concurrency the closed-loop width, or the ceiling in rate mode (null = unlimited)
 * @param rate requests per second for rate types and over all users of a user-centric phase
 * @param smoothness gamma shape
 * @param requests stop after issuing this many requests
 * @param sessions stop after starting this many conversations, once each has sent all its turns
 * @param durationSeconds stop issuing after this long
 * @param gracePeriodSeconds how long in-flight requests may finish after the duration ends
 * @param seamless the next phase starts when this one finishes sending
 * @param schedule the replay window of a fixed-schedule phase, or null
 * @param concurrencyRampSeconds the concurrency (or the ceiling) rises from 1 to its target over this long, or null
 * @param rateRampSeconds the rate rises to its target over this long (from target x 0.1 s / ramp, every 0.1 s), or null
 * @param prefillConcurrency at most this many requests sent and still waiting for their first token, or null
 * @param failedRequestThreshold a profiling phase stops, and its cell fails, once more than this share (0 to 1) of
 *                               its completed requests failed, counted from max(concurrency, 10) completions on;
 *                               null = never
 * @param users the simulated users of a user-centric phase (each sends every users / rate seconds), or null
 * @param prefillRampSeconds the prefill cap rises from 1 to {@code prefillConcurrency} over this long, or null
 * @param rateSeries the rate follows this piecewise-linear series ({@code --request-rate-series}; {@code rate} is
 *                   then its peak), or null
 * @param cancellation the phase's own request cancellation (upstream's per-phase {@code cancellation:}), or null:
 *                     a profiling phase then follows {@code runtime.request_cancellation}, a warmup cancels none
 */
public record PhaseConfig(String name, PhaseKind kind, LoadType type, Integer concurrency, Double rate,
                          Double smoothness, Integer requests, Integer sessions, Double durationSeconds,
                          Double gracePeriodSeconds, boolean seamless, Schedule schedule,
                          Double concurrencyRampSeconds, Double rateRampSeconds, Integer prefillConcurrency,
                          Double failedRequestThreshold, Integer users, Double prefillRampSeconds,
                          RateSeries rateSeries, Cancellation cancellation) {

    /** A phase without a cancellation of its own. */
    public PhaseConfig(final String name, final PhaseKind kind, final LoadType type, final Integer concurrency,
                       final Double rate, final Double smoothness, final Integer requests, final Integer sessions,
                       final Double durationSeconds, final Double gracePeriodSeconds, final boolean seamless,
                       final Schedule schedule, final Double concurrencyRampSeconds, final Double rateRampSeconds,
                       final Integer prefillConcurrency, final Double failedRequestThreshold, final Integer users,
                       final Double prefillRampSeconds, final RateSeries rateSeries) {
        this(name, kind, type, concurrency, rate, smoothness, requests, sessions, durationSeconds, gracePeriodSeconds,
                seamless, schedule, concurrencyRampSeconds, rateRampSeconds, prefillConcurrency, failedRequestThreshold,
                users, prefillRampSeconds, rateSeries, null);
    }

    /** A phase without a rate series. */
    public PhaseConfig(final String name, final PhaseKind kind, final LoadType type, final Integer concurrency,
                       final Double rate, final Double smoothness, final Integer requests, final Integer sessions,
                       final Double durationSeconds, final Double gracePeriodSeconds, final boolean seamless,
                       final Schedule schedule, final Double concurrencyRampSeconds, final Double rateRampSeconds,
                       final Integer prefillConcurrency, final Double failedRequestThreshold, final Integer users,
                       final Double prefillRampSeconds) {
        this(name, kind, type, concurrency, rate, smoothness, requests, sessions, durationSeconds, gracePeriodSeconds,
                seamless, schedule, concurrencyRampSeconds, rateRampSeconds, prefillConcurrency, failedRequestThreshold,
                users, prefillRampSeconds, (RateSeries) null);
    }

    /**
     * Cancelling a share of a phase's requests on purpose, a delay after each is fully sent (AIPerf's request
     * cancellation).
     *
     * @param ratePct the share cancelled, in percent (0 to 100)
     * @param delaySeconds how long after being sent
     */
    public record Cancellation(double ratePct, double delaySeconds) {
    }

    /** The phase's fields, to vary some by value ({@link #with}); a draft, never a config. */
    public static final class Draft {
        public Integer concurrency;
        public Double rate;
        public Integer requests;
        public Integer sessions;
        public boolean seamless;
        public Integer prefillConcurrency;
        public Integer users;
        public RateSeries rateSeries;
        private final PhaseConfig from;

        private Draft(final PhaseConfig from) {
            this.from = from;
            concurrency = from.concurrency;
            rate = from.rate;
            requests = from.requests;
            sessions = from.sessions;
            seamless = from.seamless;
            prefillConcurrency = from.prefillConcurrency;
            users = from.users;
            rateSeries = from.rateSeries;
        }

        private PhaseConfig build() {
            final PhaseConfig p = from;
            return new PhaseConfig(p.name, p.kind, p.type, concurrency, rate, p.smoothness, requests, sessions,
                    p.durationSeconds, p.gracePeriodSeconds, seamless, p.schedule, p.concurrencyRampSeconds,
                    p.rateRampSeconds, prefillConcurrency, p.failedRequestThreshold, users, p.prefillRampSeconds,
                    rateSeries, p.cancellation);
        }
    }

    /** This phase with the fields {@code change} sets on its draft (the load's sizes, seamless); the rest kept. */
    public PhaseConfig with(final java.util.function.Consumer<Draft> change) {
        final Draft draft = new Draft(this);
        change.accept(draft);
        return draft.build();
    }

    /**
     * A warmup of {@code warmupRequests} requests at this phase's load (as {@code --warmup-request-count} makes one):
     * a count-bounded phase with no ramps, no duration and no schedule.
     */
    public PhaseConfig asWarmup(final int warmupRequests) {
        return new PhaseConfig("warmup", PhaseKind.WARMUP, type, concurrency, rate, smoothness, warmupRequests, null,
                null, gracePeriodSeconds, false, null, null, null, prefillConcurrency, null, users, null, rateSeries);
    }

    /**
     * Which timestamps of a trace a fixed-schedule phase replays, and from what zero (AIPerf's fixed schedule docs).
     *
     * @param autoOffset time zero is the first replayed timestamp
     * @param startOffsetMs the first timestamp replayed (inclusive), or null
     * @param endOffsetMs the last timestamp replayed (inclusive), or null
     */
    public record Schedule(boolean autoOffset, Long startOffsetMs, Long endOffsetMs) {
        /** Whether a timestamp is replayed. */
        public boolean includes(final long timestampMs) {
            return (startOffsetMs == null || timestampMs >= startOffsetMs)
                    && (endOffsetMs == null || timestampMs <= endOffsetMs);
        }

        /** The timestamp that is time zero of the phase, given the first replayed one. */
        public long zero(final long firstTimestampMs) {
            return autoOffset ? firstTimestampMs : startOffsetMs != null ? startOffsetMs : 0;
        }
    }

    /**
     * Why this phase must stop early: more than {@link #failedRequestThreshold} of its completed requests failed
     * once at least max(concurrency, 10) completed (AIPerf's {@code --failed-request-threshold}); null otherwise.
     */
    public String failedRequestsTrip(final long completed, final long failed) {
        if (failedRequestThreshold == null || kind != PhaseKind.PROFILING
                || completed < Math.max(concurrency == null ? 0 : concurrency, 10)) {
            return null;
        }
        final double share = (double) failed / completed;
        return share > failedRequestThreshold ? String.format(java.util.Locale.ROOT,
                "aborted by --failed-request-threshold %s: %d of %d completed requests failed (%.1f%%)",
                new java.math.BigDecimal(failedRequestThreshold.toString()).stripTrailingZeros().toPlainString(),
                failed, completed, 100 * share) : null;
    }

    /** Default grace after a duration-bounded profiling phase (AIPerf's timing and load docs). */
    public static final double DEFAULT_GRACE_SECONDS = 30.0;

    /** Seconds to wait for in-flight requests after sending stops; infinite for warmup and count-bounded phases. */
    public double effectiveGraceSeconds() {
        if (gracePeriodSeconds != null) {
            return gracePeriodSeconds;
        }
        if (kind == PhaseKind.PROFILING && durationSeconds != null) {
            return DEFAULT_GRACE_SECONDS;
        }
        return Double.POSITIVE_INFINITY;
    }
}
