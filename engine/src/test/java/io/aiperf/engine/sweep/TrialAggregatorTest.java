package io.aiperf.engine.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.math.SpecialFunctions;
import io.aiperf.engine.summary.SummaryCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Student-t intervals over per-trial statistics (AIPerf's multi-run and sweep docs). */
class TrialAggregatorTest {
    private static TrialAggregator.Trial trial(final String label, final double ttftAvg) {
        final ObjectNode s = new ObjectMapper().createObjectNode();
        s.putObject("time_to_first_token").put("unit", "ms").put("avg", ttftAvg);
        return new TrialAggregator.Trial(label, SummaryCodec.read(s), null);
    }

    @Test
    void criticalValuesMatchTheReference() {
        assertThat(SpecialFunctions.studentTQuantile(0.975, 4)).isCloseTo(2.776, within(1e-3));
        assertThat(SpecialFunctions.studentTQuantile(0.975, 9)).isCloseTo(2.262, within(1e-3));
        assertThat(SpecialFunctions.studentTQuantile(0.995, 4)).isCloseTo(4.604, within(1e-3));
    }

    @Test
    void intervalUsesSampleStdAndStudentT() {
        final ObjectNode agg = TrialAggregator.aggregate(List.of(trial("run_0001", 10), trial("run_0002", 12),
                trial("run_0003", 14), trial("run_0004", 16), trial("run_0005", 18),
                new TrialAggregator.Trial("run_0006", null, "reset_kv_cache failed")), 0.95, 0);
        final var m = agg.path("metrics").path("time_to_first_token_avg");
        assertThat(m.path("mean").asDouble()).isEqualTo(14.0);
        assertThat(m.path("std").asDouble()).isCloseTo(Math.sqrt(10), within(1e-9));
        assertThat(m.path("t_critical").asDouble()).isCloseTo(2.776, within(1e-3));
        assertThat(m.path("ci_low").asDouble()).isCloseTo(14 - 2.7764 * Math.sqrt(10) / Math.sqrt(5), within(1e-3));
        assertThat(agg.path("metadata").path("num_successful_runs").asInt()).isEqualTo(5);
        assertThat(agg.path("schema_version").asText()).as("upstream 0.13's aggregate head").isEqualTo("1.0");
        assertThat(agg.fieldNames().next()).isEqualTo("schema_version");
        assertThat(agg.path("aiperf_version").isTextual()).isTrue();
        assertThat(agg.path("metadata").path("failed_runs").get(0).path("label").asText()).isEqualTo("run_0006");
    }

    /** As upstream 0.13: one successful trial is aggregated on its own, flagged, with no spread and no t. */
    @Test
    void oneSuccessfulTrialStandsAlone() {
        final ObjectNode agg = TrialAggregator.aggregate(List.of(trial("run_0001", 7),
                new TrialAggregator.Trial("run_0002", null, "refused")), 0.95, 0,
                new TrialAggregator.PointMetadata("phases.profiling.concurrency=2",
                        java.util.Map.of("phases.profiling.concurrency", 2), "repeated", "m"));
        final var meta = agg.path("metadata");
        assertThat(meta.path("single_run").asBoolean()).isTrue();
        assertThat(meta.path("num_successful_runs").asInt()).isEqualTo(1);
        assertThat(meta.path("variation_label").asText()).isEqualTo("phases.profiling.concurrency=2");
        assertThat(meta.path("variation_values").path("phases.profiling.concurrency").asInt()).isEqualTo(2);
        assertThat(meta.path("sweep_mode").asText()).isEqualTo("repeated");
        assertThat(meta.path("model").asText()).isEqualTo("m");
        final var m = agg.path("metrics").path("time_to_first_token_avg");
        assertThat(m.path("mean").asDouble()).isEqualTo(7.0);
        assertThat(m.path("ci_low").asDouble()).isEqualTo(7.0);
        assertThat(m.path("ci_high").asDouble()).isEqualTo(7.0);
        assertThat(m.path("std").asDouble()).isZero();
        assertThat(m.path("t_critical").isNull()).isTrue();
        final String csv = new String(TrialAggregateCsv.bytes(agg), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(csv).contains("time_to_first_token_avg,7.00,0.00,7.00,7.00,0.0000,0.0000,7.00,7.00,,ms\r\n")
                .contains("Run Labels,['run_0001']\r\n").contains("Single Run,True\r\n")
                .contains("Variation Values,{'phases.profiling.concurrency': 2}\r\n")
                .contains("Variation Label,phases.profiling.concurrency=2\r\n");
    }

    @Test
    void noSuccessfulTrialIsAnError() {
        assertThatThrownBy(() -> TrialAggregator.aggregate(List.of(new TrialAggregator.Trial("run_0001", null, "x")),
                0.95, 0)).hasMessageContaining("no trial succeeded");
    }

    /** Upstream aggregates avg, min, max, sum, the percentiles and std: a summary's count is no statistic of it. */
    @Test
    void theStatisticsAreUpstreams() {
        final ObjectNode s = new ObjectMapper().createObjectNode();
        s.putObject("request_latency").put("unit", "ms").put("avg", 2).put("p99", 3).put("count", 8).put("sum", 16);
        final ObjectNode agg = TrialAggregator.aggregate(List.of(new TrialAggregator.Trial("run_0001",
                SummaryCodec.read(s), null)), 0.95, 0);
        assertThat(agg.path("metrics").fieldNames()).toIterable()
                .containsExactly("request_latency_avg", "request_latency_sum", "request_latency_p99");
    }
}
