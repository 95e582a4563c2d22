package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.metrics.MetricsSummary;
import java.util.List;

/**
 * Everything the exporters write for one cell.
 *
 * @param inputConfig the {@code input_config} echo ({@link InputConfigEcho}), secrets already redacted
 * @param warmup metrics of the warmup records, or null when there was no warmup
 * @param inputs the exact request body of each dataset entry with its conversation id
 * @param startEpochNanos wall-clock start of the cell
 * @param endEpochNanos wall-clock end of the cell
 * @param health the generator's own health
 * @param environment where the cell ran, for the fingerprint a gate compares
 */
public record RunReport(String version, String benchmarkId, ObjectNode inputConfig, String cliCommand, Long randomSeed,
                        MetricsSummary profiling, MetricsSummary warmup, boolean wasCancelled,
                        List<Input> inputs, long startEpochNanos, long endEpochNanos, ClientHealth health,
                        io.aiperf.engine.record.Environment environment) {

    /**
     * How the load generator itself fared, so a bad number can be told apart from a busy client.
     *
     * @param maxScheduleLagMillis worst lateness of an open-loop send against its schedule (0 in closed loop)
     * @param clientCpuSeconds CPU time the engine process used during the cell
     * @param abandonedRequests requests still in flight when a grace period ran out (excluded from metrics)
     * @param openLoop how each open-loop profiling phase kept its schedule, by phase name (empty in closed loop)
     * @param transport how the profiling requests got onto the wire
     * @param recordQueueWaits times an I/O thread waited because the record processor was behind (timestamps taken
     *                         by that thread meanwhile may be late)
     * @param wakeupDelayP99Millis how late the client's timer wake-ups were (p99): its CPU starvation
     */
    public record ClientHealth(double maxScheduleLagMillis, double clientCpuSeconds, long abandonedRequests,
                               java.util.Map<String, io.aiperf.engine.record.OpenLoopHealth> openLoop,
                               io.aiperf.engine.record.TransportHealth transport, long recordQueueWaits,
                               double wakeupDelayP99Millis) {
    }

    /** One dataset entry as sent. */
    public record Input(String sessionId, java.util.List<byte[]> payloads) {
    }
}
