package io.aiperf.engine.metrics;

import io.aiperf.engine.record.ErrorDetails;
import io.aiperf.engine.summary.RecordLine;

/**
 * A request's metrics read back from its {@code profile_export.jsonl} line (display units back to stored ones), so
 * records written on different machines can be pooled and summarised exactly as a single run summarises its own
 * (src-docs/distributed.md), the requested output length included, so a merged cell keeps its OSL-shortfall figures.
 */
public final class RecordMetricsJsonl {
    private RecordMetricsJsonl() {
    }

    public static RecordMetrics read(final RecordLine line) {
        final RecordLine.Metadata meta = line.metadata();
        final int session = meta.sessionNum();
        final long start = meta.requestStartNs();
        final RecordLine.Error error = line.error();
        if (error != null) {
            return new RecordMetrics(false, session, start, new ErrorDetails(error.code(), error.type(),
                    error.message()), Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, null, Double.NaN,
                    whole(line, MetricRegistry.ERROR_ISL), -1, -1, -1, Double.NaN, -1, -1, -1, -1, -1, -1, -1, 0,
                    since(meta.creditIssuedNs(), meta.requestStartNs()), since(meta.creditIssuedNs(), meta.requestEndNs()));
        }
        final double latency = nanos(line, MetricRegistry.REQUEST_LATENCY);
        double[] icl = null;
        final RecordLine.Metric list = line.metric(MetricRegistry.ICL.tag());
        if (list != null && list.list() != null) {
            icl = new double[list.list().size()];
            for (int i = 0; i < icl.length; i++) {
                icl[i] = list.list().get(i).doubleValue() * MetricRegistry.ICL.nanosToDisplay();
            }
        }
        final double fromIntended = nanos(line, MetricRegistry.LATENCY_FROM_INTENDED);
        final int osl = whole(line, MetricRegistry.OSL);
        final int server = whole(line, MetricRegistry.USAGE_COMPLETION);
        final int isl = whole(line, MetricRegistry.ISL);
        return new RecordMetrics(true, session, start, null, latency, nanos(line, MetricRegistry.TTFT),
                nanos(line, MetricRegistry.TTST), nanos(line, MetricRegistry.TTFO), nanos(line, MetricRegistry.ITL), icl,
                value(line, MetricRegistry.OTPS_USER), isl, osl, whole(line, MetricRegistry.OUTPUT_TOKENS),
                whole(line, MetricRegistry.REASONING_TOKENS), Double.isNaN(fromIntended) ? Double.NaN
                : fromIntended - latency, server, server >= 0 ? osl : -1, meta.requestedOutputTokens(),
                whole(line, MetricRegistry.USAGE_PROMPT), whole(line, MetricRegistry.USAGE_TOTAL),
                whole(line, MetricRegistry.USAGE_REASONING), whole(line, MetricRegistry.USAGE_PROMPT_CACHE_READ), isl,
                Math.max(0, whole(line, MetricRegistry.NUM_IMAGES)),
                since(meta.creditIssuedNs(), start), since(meta.creditIssuedNs(), meta.requestEndNs()), http(line));
    }

    /** The HTTP trace metrics back in stored units (absent ones NaN). */
    private static HttpMetrics http(final RecordLine line) {
        return new HttpMetrics(nanos(line, HttpTraceMetrics.BLOCKED), nanos(line, HttpTraceMetrics.DNS_LOOKUP),
                nanos(line, HttpTraceMetrics.CONNECTING), nanos(line, HttpTraceMetrics.SENDING),
                nanos(line, HttpTraceMetrics.WAITING), nanos(line, HttpTraceMetrics.RECEIVING),
                nanos(line, HttpTraceMetrics.DURATION), nanos(line, HttpTraceMetrics.CONNECTION_OVERHEAD),
                nanos(line, HttpTraceMetrics.TOTAL), nanos(line, HttpTraceMetrics.DATA_SENT),
                nanos(line, HttpTraceMetrics.DATA_RECEIVED), nanos(line, HttpTraceMetrics.CHUNKS_SENT),
                nanos(line, HttpTraceMetrics.CHUNKS_RECEIVED), nanos(line, HttpTraceMetrics.CONNECTION_REUSED));
    }

    /** The metadata's {@code to - from} in ns, at least 0, NaN when either stamp is missing (written as -1 or 0). */
    private static double since(final long from, final long to) {
        return from <= 0 || to <= 0 ? Double.NaN : Math.max(0, to - from);
    }

    private static double nanos(final RecordLine line, final MetricSpec spec) {
        final double v = value(line, spec);
        return Double.isNaN(v) ? v : v * spec.nanosToDisplay();
    }

    private static double value(final RecordLine line, final MetricSpec spec) {
        final RecordLine.Metric m = line.metric(spec.tag());
        return m == null ? Double.NaN : m.number();
    }

    private static int whole(final RecordLine line, final MetricSpec spec) {
        final RecordLine.Metric m = line.metric(spec.tag());
        return m == null || m.value() == null ? -1 : m.value().intValue();
    }
}
