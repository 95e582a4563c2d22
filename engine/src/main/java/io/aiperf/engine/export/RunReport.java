package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.metrics.MetricsSummary;
import java.util.List;

/**
 * Everything the exporters write for one cell.
 *
 * @param inputConfig the effective config, secrets already redacted
 * @param warmup metrics of the warmup records, or null when there was no warmup
 * @param inputs the exact request body of each dataset entry with its conversation id
 * @param startEpochNanos, endEpochNanos wall-clock bounds of the cell
 */
public record RunReport(String version, String benchmarkId, ObjectNode inputConfig, String cliCommand, Long randomSeed,
                        MetricsSummary profiling, MetricsSummary warmup, boolean wasCancelled,
                        List<Input> inputs, long startEpochNanos, long endEpochNanos, List<String> warnings) {

    /** One dataset entry as sent. */
    public record Input(String sessionId, byte[] body) {
    }
}
