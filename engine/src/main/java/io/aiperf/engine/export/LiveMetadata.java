package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.summary.RecordMetadata;
import io.aiperf.engine.time.WallClock;
import java.util.Map;

/**
 * The metadata of the request being written, computed from it as the codec asks for each field: the schedule's
 * release (open loop: its intended time; closed loop: when it was handed to the transport), the waits for a
 * connection and a connect, and the stamps in wall-clock time. One instance per writer, pointed at each record in
 * turn, so writing a record makes no object for its metadata. Not thread-safe.
 */
final class LiveMetadata implements RecordMetadata {
    private final WallClock wall;
    private RequestRecord r;
    private Map<String, RecordMetadata.Phase> phases = Map.of();

    LiveMetadata(final WallClock wall) {
        this.wall = wall;
    }

    /** The run's phases, so each line names its own (upstream 0.13's phase fields). */
    void phases(final java.util.List<io.aiperf.engine.config.PhaseConfig> list) {
        final Map<String, RecordMetadata.Phase> m = new java.util.HashMap<>();
        int profiling = 0;
        for (int i = 0; i < list.size(); i++) {
            final io.aiperf.engine.config.PhaseConfig p = list.get(i);
            final boolean measured = p.kind() == io.aiperf.engine.config.PhaseKind.PROFILING;
            m.put(p.name(), new RecordMetadata.Phase(p.name(), p.kind().wireName(), i, measured ? profiling++ : -1));
        }
        this.phases = m;
    }

    @Override
    public RecordMetadata.Phase phase() {
        return phases.get(r.phaseName());
    }

    LiveMetadata of(final RequestRecord record) {
        this.r = record;
        return this;
    }

    private ResponseData d() {
        return r.response();
    }

    private long epoch(final long mono) {
        return mono >= 0 ? wall.toEpochNanos(mono) : -1;
    }

    @Override
    public int sessionNum() {
        return r.sessionNum();
    }

    @Override
    public String xRequestId() {
        return r.xRequestId();
    }

    @Override
    public String xCorrelationId() {
        return r.xCorrelationId();
    }

    @Override
    public String conversationId() {
        return r.conversationId();
    }

    @Override
    public int turnIndex() {
        return r.turnIndex();
    }

    @Override
    public long requestStartNs() {
        return r.startEpochNanos();
    }

    @Override
    public long creditIssuedNs() {
        return epoch(r.intendedStartPerfNanos() >= 0 ? r.intendedStartPerfNanos() : d().transport().issuedNanos());
    }

    @Override
    public long poolWaitNs() {
        final double v = d().transport().poolWaitNanos(d().startPerfNanos());
        return Double.isNaN(v) ? -1 : (long) v;
    }

    @Override
    public long connectNs() {
        final double v = d().transport().connectNanos();
        return Double.isNaN(v) ? -1 : (long) v;
    }

    @Override
    public boolean retried() {
        return d().transport().retried();
    }

    @Override
    public int redirects() {
        return d().transport().redirects();
    }

    @Override
    public int malformedChunks() {
        return d().malformedChunks();
    }

    @Override
    public int requestedOutputTokens() {
        return r.requestedOsl() == null ? -1 : r.requestedOsl();
    }

    @Override
    public long requestAckNs() {
        return epoch(d().ackPerfNanos());
    }

    @Override
    public long requestEndNs() {
        return epoch(r.endNanos());
    }

    @Override
    public String workerId() {
        return "worker_0";
    }

    @Override
    public String recordProcessorId() {
        return "record_processor_0";
    }

    @Override
    public String benchmarkPhase() {
        return r.profiling() ? "profiling" : "warmup";
    }

    @Override
    public boolean wasCancelled() {
        return r.wasCancelled();
    }

    @Override
    public long cancellationTimeNs() {
        return epoch(r.cancelPerfNanos());
    }

    @Override
    public Map<String, JsonNode> extra() {
        return Map.of();
    }
}
