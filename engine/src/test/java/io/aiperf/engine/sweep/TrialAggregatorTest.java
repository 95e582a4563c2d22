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

    @Test
    void fewerThanTwoSuccessfulTrialsIsAnError() {
        assertThatThrownBy(() -> TrialAggregator.aggregate(List.of(trial("run_0001", 1)), 0.95, 0))
                .hasMessage("Insufficient successful runs for confidence intervals. Got 1 successful run(s), but need at least 2.");
    }
}
