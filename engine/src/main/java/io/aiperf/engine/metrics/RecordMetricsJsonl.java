package io.aiperf.engine.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.record.ErrorDetails;

/**
 * A request's metrics read back from its {@code profile_export.jsonl} line (display units back to stored ones), so
 * records written on different machines can be pooled and summarised exactly as a single run summarises its own
 * (src-docs/distributed.md), the requested output length included, so a merged cell keeps its OSL-shortfall figures.
 */
public final class RecordMetricsJsonl {
    /** The metadata field of the output cap a request sent; records merged from shards keep their token accounting. */
    public static final String REQUESTED_OUTPUT_TOKENS = "requested_output_tokens";

    private RecordMetricsJsonl() {
    }

    public static RecordMetrics read(final JsonNode line) {
        final JsonNode meta = line.path("metadata");
        final JsonNode m = line.path("metrics");
        final int session = meta.path("session_num").asInt();
        final long start = meta.path("request_start_ns").asLong();
        final JsonNode error = line.path("error");
        if (error.isObject()) {
            return new RecordMetrics(false, session, start, new ErrorDetails(error.path("code").isNumber()
                    ? error.path("code").asInt() : null, error.path("type").asText(), error.path("message").asText()),
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, null, Double.NaN,
                    whole(m, "error_isl"), -1, -1, -1, Double.NaN, -1, -1, -1, -1, -1, -1, -1, 0);
        }
        final double latency = nanos(m, MetricRegistry.REQUEST_LATENCY);
        double[] icl = null;
        final JsonNode list = m.path(MetricRegistry.ICL.tag()).path("value");
        if (list.isArray()) {
            icl = new double[list.size()];
            for (int i = 0; i < icl.length; i++) {
                icl[i] = list.get(i).asDouble() * MetricRegistry.ICL.nanosToDisplay();
            }
        }
        final double fromIntended = nanos(m, MetricRegistry.LATENCY_FROM_INTENDED);
        final int osl = whole(m, MetricRegistry.OSL.tag());
        final int server = whole(m, MetricRegistry.USAGE_COMPLETION.tag());
        final int isl = whole(m, MetricRegistry.ISL.tag());
        return new RecordMetrics(true, session, start, null, latency, nanos(m, MetricRegistry.TTFT),
                nanos(m, MetricRegistry.TTST), nanos(m, MetricRegistry.TTFO), nanos(m, MetricRegistry.ITL), icl,
                value(m, MetricRegistry.OTPS_USER.tag()), isl, osl, whole(m, MetricRegistry.OUTPUT_TOKENS.tag()),
                whole(m, MetricRegistry.REASONING_TOKENS.tag()), Double.isNaN(fromIntended) ? Double.NaN
                : fromIntended - latency, server, server >= 0 ? osl : -1,
                meta.path(REQUESTED_OUTPUT_TOKENS).asInt(-1),
                whole(m, MetricRegistry.USAGE_PROMPT.tag()), whole(m, MetricRegistry.USAGE_TOTAL.tag()),
                whole(m, MetricRegistry.USAGE_REASONING.tag()), isl, Math.max(0, whole(m, MetricRegistry.NUM_IMAGES.tag())));
    }

    private static double nanos(final JsonNode m, final MetricSpec spec) {
        final double v = value(m, spec.tag());
        return Double.isNaN(v) ? v : v * spec.nanosToDisplay();
    }

    private static double value(final JsonNode m, final String tag) {
        final JsonNode v = m.path(tag).path("value");
        return v.isNumber() ? v.asDouble() : Double.NaN;
    }

    private static int whole(final JsonNode m, final String tag) {
        final JsonNode v = m.path(tag).path("value");
        return v.isNumber() ? v.asInt() : -1;
    }
}
