package io.aiperf.engine.metrics;

import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.record.ErrorDetails;
import io.aiperf.engine.record.RequestRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Records to metrics (AIPerf's metrics reference): per-request values, exact distribution statistics, then the run-level
 * values over the window {@code max(start + latency) - min(start)} of the valid records. Tokenization of
 * outputs runs in parallel. Stateless.
 */
public final class MetricsCalculator {
    private MetricsCalculator() {
    }

    /**
     * @param slos goodput thresholds by tag in display units; empty for no goodput
     */
    public static MetricsSummary compute(final List<RequestRecord> input, final boolean streaming,
                                         final boolean serverTokens, final Map<String, Double> slos) {
        final Tokenizer tokenizer = Tokenizer.builtin();
        final List<RequestRecord> sorted = new ArrayList<>(input);
        sorted.sort(Comparator.comparingInt(RequestRecord::sessionNum));
        final List<RecordMetrics> records = sorted.parallelStream()
                .map(r -> RecordMetrics.of(r, streaming, serverTokens, tokenizer)).toList();
        final List<RecordMetrics> valid = records.stream().filter(RecordMetrics::valid).toList();
        final Map<String, MetricValue> out = new LinkedHashMap<>();
        dist(out, MetricRegistry.REQUEST_LATENCY, valid, RecordMetrics::latencyNanos);
        dist(out, MetricRegistry.TTFT, valid, RecordMetrics::ttftNanos);
        dist(out, MetricRegistry.TTST, valid, RecordMetrics::ttstNanos);
        dist(out, MetricRegistry.ITL, valid, RecordMetrics::itlNanos);
        icl(out, valid);
        dist(out, MetricRegistry.LATENCY_FROM_INTENDED, valid, RecordMetrics::latencyFromIntendedNanos);
        dist(out, MetricRegistry.TTFT_FROM_INTENDED, valid, RecordMetrics::ttftFromIntendedNanos);
        dist(out, MetricRegistry.OTPS_USER, valid, RecordMetrics::outputTokensPerSecondPerUser);
        dist(out, MetricRegistry.ISL, valid, m -> m.isl() < 0 ? Double.NaN : m.isl());
        dist(out, MetricRegistry.OSL, valid, m -> m.osl() < 0 ? Double.NaN : m.osl());
        dist(out, MetricRegistry.OUTPUT_TOKENS, valid, m -> m.outputTokens() < 0 ? Double.NaN : m.outputTokens());
        dist(out, MetricRegistry.REASONING_TOKENS, valid, m -> m.reasoningTokens() < 0 ? Double.NaN : m.reasoningTokens());

        final long errors = records.size() - valid.size();
        Long minStart = null;
        Long maxEnd = null;
        for (final RecordMetrics m : valid) {
            final long start = m.record().startEpochNanos();
            final long end = start + (long) m.latencyNanos();
            minStart = minStart == null ? start : Math.min(minStart, start);
            maxEnd = maxEnd == null ? end : Math.max(maxEnd, end);
        }
        final Map<String, MetricValue> scalars = new LinkedHashMap<>();
        if (!valid.isEmpty() && minStart < maxEnd) {
            final double duration = (maxEnd - minStart) / 1e9;
            final double totalOsl = valid.stream().filter(m -> m.osl() >= 0).mapToDouble(RecordMetrics::osl).sum();
            final double totalIsl = valid.stream().filter(m -> m.isl() >= 0).mapToDouble(RecordMetrics::isl).sum();
            scalar(scalars, MetricRegistry.REQUEST_THROUGHPUT, valid.size() / duration);
            if (valid.stream().anyMatch(m -> m.osl() >= 0)) {
                scalar(scalars, MetricRegistry.OUTPUT_THROUGHPUT, totalOsl / duration);
                scalar(scalars, MetricRegistry.TOTAL_THROUGHPUT, (totalIsl + totalOsl) / duration);
            }
            scalar(scalars, MetricRegistry.REQUEST_COUNT, valid.size());
            if (errors > 0) {
                scalar(scalars, MetricRegistry.ERROR_COUNT, errors);
            }
            scalar(scalars, MetricRegistry.ERROR_RATE, 100.0 * errors / records.size());
            scalar(scalars, MetricRegistry.DURATION, duration);
            if (!slos.isEmpty()) {
                final long good = valid.stream().filter(m -> meetsAll(m, slos)).count();
                scalar(scalars, MetricRegistry.GOOD_COUNT, good);
                scalar(scalars, MetricRegistry.GOODPUT, good / duration);
            }
        } else if (errors > 0) {
            scalar(scalars, MetricRegistry.ERROR_COUNT, errors);
        }
        out.putAll(scalars);
        return new MetricsSummary(out, records, errorSummary(records), minStart, maxEnd);
    }

    private static void dist(final Map<String, MetricValue> out, final MetricSpec spec, final List<RecordMetrics> valid,
                             final ToDoubleFunction<RecordMetrics> f) {
        final double[] v = new double[valid.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = f.applyAsDouble(valid.get(i)) / spec.nanosToDisplay();
        }
        final Stats s = Stats.of(v, v.length);
        if (s != null) {
            out.put(spec.tag(), new MetricValue(spec, s, null));
        }
    }

    private static void icl(final Map<String, MetricValue> out, final List<RecordMetrics> valid) {
        int n = 0;
        for (final RecordMetrics m : valid) {
            n += m.iclNanos() == null ? 0 : m.iclNanos().length;
        }
        final double[] v = new double[n];
        int i = 0;
        for (final RecordMetrics m : valid) {
            if (m.iclNanos() != null) {
                for (final double d : m.iclNanos()) {
                    v[i++] = d / MetricRegistry.ICL.nanosToDisplay();
                }
            }
        }
        final Stats s = Stats.of(v, n);
        if (s != null) {
            out.put(MetricRegistry.ICL.tag(), new MetricValue(MetricRegistry.ICL, s, null));
        }
    }

    private static void scalar(final Map<String, MetricValue> out, final MetricSpec spec, final double value) {
        if (Double.isFinite(value)) {
            out.put(spec.tag(), new MetricValue(spec, null, value));
        }
    }

    /** Every SLO met, inclusive: {@code >=} for larger-is-better metrics, {@code <=} otherwise; a missing value fails. */
    static boolean meetsAll(final RecordMetrics m, final Map<String, Double> slos) {
        for (final Map.Entry<String, Double> slo : slos.entrySet()) {
            final double v = displayValue(m, slo.getKey());
            if (Double.isNaN(v)) {
                return false;
            }
            final MetricSpec spec = MetricRegistry.byTag(slo.getKey());
            final boolean larger = spec != null && spec.largerIsBetter();
            if (larger ? v < slo.getValue() : v > slo.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static double displayValue(final RecordMetrics m, final String tag) {
        return switch (tag) {
            case "request_latency" -> m.latencyNanos() / 1e6;
            case "time_to_first_token" -> m.ttftNanos() / 1e6;
            case "time_to_second_token" -> m.ttstNanos() / 1e6;
            case "inter_token_latency" -> m.itlNanos() / 1e6;
            case "output_token_throughput_per_user" -> m.outputTokensPerSecondPerUser();
            case "input_sequence_length" -> m.isl() < 0 ? Double.NaN : m.isl();
            case "output_sequence_length" -> m.osl() < 0 ? Double.NaN : m.osl();
            default -> Double.NaN;
        };
    }

    private static List<ErrorSummaryEntry> errorSummary(final List<RecordMetrics> records) {
        final Map<ErrorDetails, Long> counts = new LinkedHashMap<>();
        for (final RecordMetrics m : records) {
            if (!m.valid()) {
                final ErrorDetails e = m.record().response().error() != null ? m.record().response().error()
                        : new ErrorDetails(null, "InvalidInferenceResultError", "Invalid inference result");
                counts.merge(e, 1L, Long::sum);
            }
        }
        final List<ErrorSummaryEntry> out = new ArrayList<>();
        counts.forEach((k, v) -> out.add(new ErrorSummaryEntry(k, v)));
        out.sort(Comparator.comparingLong(ErrorSummaryEntry::count).reversed());
        return out;
    }
}
