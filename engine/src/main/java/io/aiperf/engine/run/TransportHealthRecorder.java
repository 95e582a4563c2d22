package io.aiperf.engine.run;

import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportHealth;
import io.aiperf.engine.record.TransportTimes;
import org.HdrHistogram.Histogram;

/** Folds each record's transport stamps into {@link TransportHealth}, in constant memory. Not thread-safe. */
final class TransportHealthRecorder {
    private final Histogram poolWaitMicros = MicrosHistograms.histogram();
    private long requests;
    private long connects;
    private long connectMaxNanos;
    private long retries;
    private long malformed;
    private long redirects;
    private boolean closesAfterResponse;

    void add(final RequestRecord record) {
        final ResponseData d = record.response();
        final TransportTimes t = d.transport();
        requests++;
        malformed += d.malformedChunks();
        if (t.retried()) {
            retries++;
        }
        redirects += t.redirects();
        closesAfterResponse |= t.closesAfterResponse();
        final double wait = t.poolWaitNanos(d.startPerfNanos());
        if (!Double.isNaN(wait)) {
            poolWaitMicros.recordValue(MicrosHistograms.clamp((long) (wait / 1000)));
        }
        final double connect = t.connectNanos();
        if (!Double.isNaN(connect)) {
            connects++;
            connectMaxNanos = Math.max(connectMaxNanos, (long) connect);
        }
    }

    TransportHealth health() {
        final boolean any = poolWaitMicros.getTotalCount() > 0;
        return new TransportHealth(requests, any ? poolWaitMicros.getValueAtPercentile(50) / 1000.0 : 0,
                any ? poolWaitMicros.getValueAtPercentile(99) / 1000.0 : 0,
                any ? poolWaitMicros.getMaxValue() / 1000.0 : 0, connects, connectMaxNanos / 1e6, retries, malformed,
                redirects, closesAfterResponse);
    }
}
