package io.aiperf.engine.mock;

import java.util.List;

/**
 * Settings of the mock server (AIPerf's mock server docs). Latencies in milliseconds.
 *
 * @param ttftMillis delay before the first token
 * @param itlMillis delay between tokens
 * @param ttftJitterCv coefficient of variation of a lognormal TTFT factor (0 = exact)
 * @param errorRatePercent share of inference requests answered with HTTP 500
 * @param apiKey required on inference routes when set
 * @param faults faults armed at start
 * @param maxSlots requests served at once; those beyond wait for a slot (0 = unlimited)
 */
public record MockServerConfig(String host, int port, double ttftMillis, double itlMillis, double ttftJitterCv,
                               double itlJitterCv, double errorRatePercent, String apiKey, long randomSeed,
                               List<Fault> faults, int maxSlots) {

    public static MockServerConfig fast() {
        return new MockServerConfig("127.0.0.1", 0, 0, 0, 0, 0, 0, null, 0, List.of(), 0);
    }

    /** The same settings with faults armed, each given as {@link Fault#parse} takes it. */
    public MockServerConfig withFaults(final String... specs) {
        return new MockServerConfig(host, port, ttftMillis, itlMillis, ttftJitterCv, itlJitterCv, errorRatePercent,
                apiKey, randomSeed, java.util.Arrays.stream(specs).map(Fault::parse).toList(), maxSlots);
    }

    public MockServerConfig withLatency(final double ttft, final double itl) {
        return new MockServerConfig(host, port, ttft, itl, ttftJitterCv, itlJitterCv, errorRatePercent, apiKey,
                randomSeed, faults, maxSlots);
    }

    public MockServerConfig withApiKey(final String key) {
        return new MockServerConfig(host, port, ttftMillis, itlMillis, ttftJitterCv, itlJitterCv, errorRatePercent,
                key, randomSeed, faults, maxSlots);
    }

    public MockServerConfig withErrorRate(final double percent) {
        return new MockServerConfig(host, port, ttftMillis, itlMillis, ttftJitterCv, itlJitterCv, percent, apiKey,
                randomSeed, faults, maxSlots);
    }

    /** The same settings serving at most {@code slots} requests at once (0 = unlimited). */
    public MockServerConfig withMaxSlots(final int slots) {
        return new MockServerConfig(host, port, ttftMillis, itlMillis, ttftJitterCv, itlJitterCv, errorRatePercent,
                apiKey, randomSeed, faults, slots);
    }

    /**
     * The settings in the words of the mock's options, for its start line: {@code TTFT 20 ms, ITL 5 ms, errors 0%,
     * no API key, unlimited slots, no faults}. The API key is never shown.
     */
    public String describe() {
        return "TTFT " + number(ttftMillis) + " ms" + (ttftJitterCv > 0 ? " (jitter CV " + number(ttftJitterCv) + ")"
                : "") + ", ITL " + number(itlMillis) + " ms" + (itlJitterCv > 0 ? " (jitter CV " + number(itlJitterCv)
                + ")" : "") + ", errors " + number(errorRatePercent) + "%, " + (apiKey == null ? "no API key"
                : "API key required") + ", " + (maxSlots > 0 ? maxSlots + " slots" : "unlimited slots") + ", "
                + (faults.isEmpty() ? "no faults" : "faults " + String.join(" ", faults.stream()
                .map(Fault::spec).toList()));
    }

    /** As {@link #describe()}: a record's own text would show field names and the API key. */
    @Override
    public String toString() {
        return describe();
    }

    private static String number(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
    }
}
