package io.aiperf.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import org.junit.jupiter.api.Test;

/**
 * Upstream's HTTP trace metrics (k6's phases) of one request, each formula from stamps given by hand: handed over at
 * I, connect CS..CD, write W..WD, body FB..LB.
 */
class HttpMetricsTest {
    private static final long I = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    private static RequestRecord record(final long connectStart, final long connectDone, final long write,
                                        final TransportTimes.Wire wire) {
        final ResponseData d = new ResponseData(write, wire.firstByteNanos(), new long[] {wire.lastByteNanos()}, 1,
                0, "hi there", null, null, null, 0, new TransportTimes(I, connectStart, connectDone, false, 0, false,
                wire));
        return new RequestRecord("profiling", true, 0, "x", "c", "conv", 0, "m", 1L, 4, null, d, false, -1, null, -1,
                0);
    }

    private static TransportTimes.Wire wire(final long first, final long last, final int reads, final long written,
                                            final long sent, final boolean newConnection) {
        return new TransportTimes.Wire(200, "OK", first, last, 2_048, reads, written, sent, newConnection);
    }

    @Test
    void aRequestThatOpenedItsConnection() {
        // handed over at I, connect I+1..I+3 ms, write I+4 ms..+0.5 ms, body I+10..I+30 ms in 5 reads
        final HttpMetrics m = HttpMetrics.of(record(I + MS, I + 3 * MS, I + 4 * MS,
                wire(I + 10 * MS, I + 30 * MS, 5, I + 4 * MS + MS / 2, 512, true)));
        assertThat(m.blockedNanos()).as("hand-over to connect start").isEqualTo(MS);
        assertThat(m.dnsLookupNanos()).isZero();
        assertThat(m.connectingNanos()).isEqualTo(2 * MS);
        assertThat(m.sendingNanos()).as("write start to end").isEqualTo(MS / 2);
        assertThat(m.waitingNanos()).as("write end to first byte").isEqualTo(5.5 * MS);
        assertThat(m.receivingNanos()).as("first to last byte").isEqualTo(20 * MS);
        assertThat(m.durationNanos()).as("write start to last byte").isEqualTo(26 * MS);
        assertThat(m.connectionOverheadNanos()).isEqualTo(3 * MS);
        assertThat(m.totalNanos()).as("overhead + sending + waiting + receiving").isEqualTo(29 * MS);
        assertThat(m.dataSentBytes()).isEqualTo(512);
        assertThat(m.chunksSent()).isEqualTo(1);
        assertThat(m.dataReceivedBytes()).isEqualTo(2_048);
        assertThat(m.chunksReceived()).isEqualTo(5);
        assertThat(m.connectionReused()).isZero();
    }

    @Test
    void aRequestOnAReusedConnection() {
        final HttpMetrics m = HttpMetrics.of(record(-1, -1, I + 2 * MS,
                wire(I + 9 * MS, I + 9 * MS, 1, I + 3 * MS, 100, false)));
        assertThat(m.blockedNanos()).as("hand-over to write start").isEqualTo(2 * MS);
        assertThat(m.connectingNanos()).isZero();
        assertThat(m.sendingNanos()).isEqualTo(MS);
        assertThat(m.waitingNanos()).isEqualTo(6 * MS);
        assertThat(m.receivingNanos()).as("one read: nothing to receive after the first byte").isZero();
        assertThat(m.durationNanos()).isEqualTo(7 * MS);
        assertThat(m.connectionOverheadNanos()).isEqualTo(2 * MS);
        assertThat(m.totalNanos()).isEqualTo(9 * MS);
        assertThat(m.connectionReused()).isEqualTo(1);
    }

    @Test
    void aConnectionOpenedAheadOfTheLoadIsNewButCostsTheRequestNoConnect() {
        final HttpMetrics m = HttpMetrics.of(record(-1, -1, I + MS, wire(I + 5 * MS, I + 6 * MS, 2, I + MS, 10,
                true)));
        assertThat(m.connectionReused()).isZero();
        assertThat(m.connectingNanos()).isZero();
        assertThat(m.blockedNanos()).isEqualTo(MS);
    }

    @Test
    void unknownWriteEndAndBodySizeLeaveSendingZeroAndTheSentDataAbsent() {
        // the HTTP/2 client stamps only the write's start and does not size the body
        final HttpMetrics m = HttpMetrics.of(record(-1, -1, I + MS, new TransportTimes.Wire(200, "OK", I + 4 * MS,
                I + 8 * MS, 64, 2)));
        assertThat(m.sendingNanos()).isZero();
        assertThat(m.waitingNanos()).isEqualTo(3 * MS);
        assertThat(m.dataSentBytes()).isNaN();
        assertThat(m.chunksSent()).isNaN();
        assertThat(m.connectionReused()).isEqualTo(1);
    }

    @Test
    void noTimedBodyMeansNoHttpMetric() {
        final HttpMetrics m = HttpMetrics.of(record(-1, -1, I, TransportTimes.Wire.NONE));
        assertThat(m).isEqualTo(HttpMetrics.NONE);
        for (final MetricSpec spec : HttpTraceMetrics.ALL) {
            assertThat(spec.perRecord().applyAsDouble(RecordMetrics.of(record(-1, -1, I, TransportTimes.Wire.NONE),
                    false, false, Tokenizer.builtin()))).as(spec.tag()).isNaN();
        }
    }

    @Test
    void theCatalogueHoldsThemInUpstreamsNamesUnitsAndOrder() {
        assertThat(HttpTraceMetrics.ALL).extracting(MetricSpec::tag).containsExactly("http_req_blocked",
                "http_req_dns_lookup", "http_req_connecting", "http_req_sending", "http_req_waiting",
                "http_req_receiving", "http_req_connection_reused", "http_req_data_sent", "http_req_chunks_sent",
                "http_req_data_received", "http_req_chunks_received", "http_req_connection_overhead",
                "http_req_duration", "http_req_total");
        assertThat(MetricRegistry.PER_RECORD).containsAll(HttpTraceMetrics.ALL);
        assertThat(HttpTraceMetrics.ALL).noneMatch(MetricSpec::console);
        assertThat(HttpTraceMetrics.WAITING.header()).isEqualTo("HTTP Waiting (TTFB)");
        assertThat(HttpTraceMetrics.DURATION.header()).isEqualTo("HTTP Duration (excl. conn)");
        assertThat(HttpTraceMetrics.DATA_RECEIVED.unit()).isEqualTo("KB");
        assertThat(HttpTraceMetrics.DATA_RECEIVED.displayValue(RecordMetrics.of(record(-1, -1, I,
                wire(I + MS, I + MS, 1, I, 10, false)), false, false, Tokenizer.builtin()))).isEqualTo(2.0);
        assertThat(HttpTraceMetrics.CONNECTION_REUSED.unit()).isEqualTo("ratio");
        assertThat(HttpTraceMetrics.CHUNKS_RECEIVED.unit()).isEqualTo("count");
    }
}
