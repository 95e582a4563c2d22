package io.aiperf.engine.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.metrics.MetricsAccumulator;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.metrics.ReplayScheduleLag;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.record.ShardRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merging a cell's shards on hand-written exports (src-docs/distributed.md): the records are pooled and summarised
 * as one run's, the token accounting and the shards' start survive, and shards that are not one run's are refused.
 */
class ShardMergerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ExportNames NAMES = ExportNames.of(null);
    private static final CellIdentity CELL = new CellIdentity(0, CellIdentity.SINGLE, ".", null, Map.of(), 1, 1,
            0.95, 0);

    @TempDir
    Path tmp;

    /** A shard's directory: its summary (config hash, ignore_eos) and one record per latency, each asking 10 tokens. */
    private CellOutcome shard(final int index, final int count, final String hash, final String idPrefix,
                              final double startLatenessMs, final double... latenciesMs) throws Exception {
        final Path dir = tmp.resolve("shard" + index + "-" + idPrefix);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(NAMES.summaryJson()), ("{'schema_version':'1.5','aiperf_version':'t',"
                + "'benchmark_id':'b" + index + "','input_config':{'endpoint':{'extra':{'ignore_eos':true}}},"
                + "'was_cancelled':false,'environment':{'config_hash':'" + hash + "'}}").replace('\'', '"'));
        final StringBuilder lines = new StringBuilder();
        for (int i = 0; i < latenciesMs.length; i++) {
            lines.append(("{'metadata':{'session_num':" + i + ",'x_request_id':'" + idPrefix + i + "',"
                    + "'request_start_ns':" + (1_000_000_000L * (i + 1)) + ",'requested_output_tokens':10},"
                    + "'metrics':{'request_latency':{'value':" + latenciesMs[i] + ",'unit':'ms'},"
                    + "'input_sequence_length':{'value':8,'unit':'tokens'},"
                    + "'output_sequence_length':{'value':8,'unit':'tokens'},"
                    + "'output_token_count':{'value':8,'unit':'tokens'}}}").replace('\'', '"')).append('\n');
        }
        Files.writeString(dir.resolve(NAMES.recordsJsonl()), lines);
        return new CellOutcome(CellStatus.COMPLETED, dir.toString(), List.of(), List.of(), null,
                latenciesMs.length, latenciesMs.length, 0, CELL,
                new ShardRun(index, count, null, startLatenessMs, null));
    }

    @Test
    void theShardsRecordsArePooledAndTheirAccountingAndStartKept() throws Exception {
        final Path target = tmp.resolve("merged");
        Files.createDirectories(target);
        // given out of order: the merge sorts by shard index
        final CellOutcome merged = ShardMerger.merge(List.of(shard(2, 2, "h", "b", 40, 30, 50),
                shard(1, 2, "h", "a", 10, 10, 20)), target, NAMES);
        assertThat(merged.requestsSent()).isEqualTo(4);
        assertThat(merged.valid()).isEqualTo(4);
        assertThat(merged.status()).isEqualTo(CellStatus.COMPLETED);
        final JsonNode s = JSON.readTree(target.resolve(NAMES.summaryJson()).toFile());
        // percentiles of the pooled records: 10, 20, 30, 50 ms
        assertThat(s.path("request_count").path("avg").asDouble()).isEqualTo(4);
        assertThat(s.path("request_latency").path("avg").asDouble()).isCloseTo(27.5, within(1e-9));
        assertThat(s.path("request_latency").path("max").asDouble()).isCloseTo(50, within(1e-9));
        assertThat(s.path("request_latency").path("min").asDouble()).isCloseTo(10, within(1e-9));
        // the rest is shard 1's
        assertThat(s.path("benchmark_id").asText()).isEqualTo("b1");
        // 4 requests asked 10 tokens each and got 8: the OSL shortfall check sees 20%
        assertThat(s.path("token_accounting").path("osl_requests").asLong()).isEqualTo(4);
        assertThat(s.path("token_accounting").path("requested_output_tokens").asLong()).isEqualTo(40);
        assertThat(s.path("token_accounting").path("delivered_output_tokens").asLong()).isEqualTo(32);
        final JsonNode shortfall = check(s, "osl_shortfall");
        assertThat(shortfall.path("figure").asDouble()).isCloseTo(20, within(1e-9));
        assertThat(s.path("shards").path("count").asInt()).isEqualTo(2);
        assertThat(s.path("shards").path("requests_sent").toString()).isEqualTo("[2,2]");
        assertThat(s.path("shards").path("start_lateness_ms").toString()).isEqualTo("[10.0,40.0]");
        assertThat(check(s, "shard_start").path("figure").asDouble()).isCloseTo(30, within(1e-9));
        // the pooled records, both shards' lines
        assertThat(Files.readAllLines(target.resolve(NAMES.recordsJsonl()))).hasSize(4);
        assertThat(Files.isRegularFile(target.resolve("cell_outcome.json"))).isTrue();
    }

    /**
     * A fixed-schedule shard: each record sent {@code delaysMs[i]} after its scheduled time (its latency from the
     * intended start is its latency plus that delay), in a summary whose profiling phase replays a fixed schedule.
     */
    private CellOutcome scheduledShard(final int index, final double... delaysMs) throws Exception {
        final Path dir = tmp.resolve("scheduled" + index);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(NAMES.summaryJson()), ("{'schema_version':'1.5','aiperf_version':'t',"
                + "'benchmark_id':'b" + index + "','input_config':{'phases':[{'name':'profiling',"
                + "'kind':'profiling','type':'fixed_schedule','auto_offset':true}]},"
                + "'was_cancelled':false,'environment':{'config_hash':'h'}}").replace('\'', '"'));
        final StringBuilder lines = new StringBuilder();
        for (int i = 0; i < delaysMs.length; i++) {
            lines.append(("{'metadata':{'session_num':" + i + ",'x_request_id':'s" + index + "-" + i + "',"
                    + "'request_start_ns':" + (1_000_000_000L * (i + 1)) + "},"
                    + "'metrics':{'request_latency':{'value':" + LATENCY_MS + ",'unit':'ms'},"
                    + "'request_latency_from_intended':{'value':" + (LATENCY_MS + delaysMs[i]) + ",'unit':'ms'},"
                    + "'input_sequence_length':{'value':8,'unit':'tokens'}}}").replace('\'', '"')).append('\n');
        }
        Files.writeString(dir.resolve(NAMES.recordsJsonl()), lines);
        return new CellOutcome(CellStatus.COMPLETED, dir.toString(), List.of(), List.of(), null,
                delaysMs.length, delaysMs.length, 0, CELL, new ShardRun(index, 2, null, 0.0, null));
    }

    private static final double LATENCY_MS = 20.0;

    /** The replay-schedule values a single process computes for requests sent these delays late. */
    private static Map<String, Double> oneProcess(final double... delaysMs) {
        try (MetricsAccumulator acc = new MetricsAccumulator(Map.of(), true)) {
            for (final double d : delaysMs) {
                acc.add(new RecordMetrics(true, 0, 1_000_000_000L, null, LATENCY_MS * 1e6, Double.NaN, Double.NaN,
                        Double.NaN, Double.NaN, null, Double.NaN, 8, -1, -1, -1, d * 1e6, -1, -1, -1, -1, -1, -1,
                        -1, 0, Double.NaN, Double.NaN));
            }
            final Map<String, Double> out = new java.util.LinkedHashMap<>();
            ReplayScheduleLag.ALL.forEach(spec -> out.put(spec.tag(), acc.summary().metrics().get(spec.tag()).value()));
            return out;
        }
    }

    @Test
    void aFixedScheduleKeepsItsReplayLagComputedOverEveryShardsSamples() throws Exception {
        final Path target = tmp.resolve("merged-schedule");
        Files.createDirectories(target);
        // the least-late send is shard 2's (2 ms): anchored there, as one process anchors its whole run, the lags are
        // 0, 1, 3, 7, 38 and 698 ms; anchoring each shard at its own least-late send would give 0, 0, 1, 4, 35, 698
        final double[] first = {5, 9, 40};
        final double[] second = {2, 3, 700};
        ShardMerger.merge(List.of(scheduledShard(1, first), scheduledShard(2, second)), target, NAMES);
        final JsonNode s = JSON.readTree(target.resolve(NAMES.summaryJson()).toFile());
        final Map<String, Double> expected = oneProcess(5, 9, 40, 2, 3, 700);
        assertThat(expected).containsEntry("replay_sched_degraded", 1.0);
        assertThat(expected.get("replay_sched_lag_p50")).isCloseTo(5.0, within(1e-9)); // (3 + 7) / 2
        for (final Map.Entry<String, Double> e : expected.entrySet()) {
            assertThat(s.path(e.getKey()).path("avg").asDouble(Double.NaN)).as(e.getKey())
                    .isCloseTo(e.getValue(), within(1e-9));
        }
    }

    @Test
    void anyOtherLoadHasNoReplayLagAfterTheMerge() throws Exception {
        final Path target = tmp.resolve("merged-rate");
        Files.createDirectories(target);
        ShardMerger.merge(List.of(shard(1, 2, "h", "a", 0, 10), shard(2, 2, "h", "b", 0, 20)), target, NAMES);
        final JsonNode s = JSON.readTree(target.resolve(NAMES.summaryJson()).toFile());
        ReplayScheduleLag.ALL.forEach(spec -> assertThat(s.has(spec.tag())).as(spec.tag()).isFalse());
    }

    @Test
    void shardsThatAreNotOneRunsAreRefused() throws Exception {
        final Path target = tmp.resolve("refused");
        Files.createDirectories(target);
        assertThatThrownBy(() -> ShardMerger.merge(List.of(shard(1, 2, "h", "a", 0, 10)), target, NAMES))
                .isInstanceOf(ConfigException.class).hasMessageContaining("shard 2/2 is missing");
        assertThatThrownBy(() -> ShardMerger.merge(List.of(shard(1, 2, "h", "a", 0, 10),
                shard(2, 2, "other", "b", 0, 10)), target, NAMES))
                .isInstanceOf(ConfigException.class).hasMessageContaining("ran another configuration");
        assertThatThrownBy(() -> ShardMerger.merge(List.of(shard(1, 2, "h", "a", 0, 10),
                shard(2, 2, "h", "a", 0, 20)), target, NAMES))
                .isInstanceOf(ConfigException.class).hasMessageContaining("request a0 appears in two shards");
    }

    private static JsonNode check(final JsonNode summary, final String name) {
        for (final JsonNode c : summary.path("validity").path("checks")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no " + name + " check in " + summary.path("validity"));
    }
}
