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
        /**
         * A pool wait above this at p99 means requests queued in the client for a connection, time the server never
         * saw: the client, not the server, shaped the load (src-docs/performance.md).
         */
        public static final double POOL_WAIT_LIMIT_MILLIS = 1.0;

        /**
         * What limited the run on the client's side, in order: {@code open_loop} (an open loop sent less than its
         * schedule, {@link io.aiperf.engine.record.OpenLoopHealth#clientLimited()}), {@code pool_wait} (an open
         * loop's requests waited over {@value #POOL_WAIT_LIMIT_MILLIS} ms at p99 for a connection, and no arrival
         * waited for a --concurrency ceiling, which holds connections back by design); empty when nothing did. A
         * closed loop's users send when their answers come back, so a wait there delays its own next request and
         * shapes no schedule: the {@code pool_wait} validity check judges it instead.
         */
        public java.util.List<String> limitedBy() {
            final java.util.List<String> by = new java.util.ArrayList<>();
            if (openLoop.values().stream().anyMatch(io.aiperf.engine.record.OpenLoopHealth::clientLimited)) {
                by.add("open_loop");
            }
            // Arrivals held by the --concurrency ceiling asked for also wait for its connections: the ceiling's doing.
            final boolean ceiling = openLoop.values().stream().anyMatch(h -> h.ceilingWaits() > 0);
            if (!openLoop.isEmpty() && !ceiling && transport.poolWaitP99Millis() > POOL_WAIT_LIMIT_MILLIS) {
                by.add("pool_wait");
            }
            return by;
        }
    }

    /** One dataset entry as sent. */
    public record Input(String sessionId, java.util.List<byte[]> payloads) {
    }
}
