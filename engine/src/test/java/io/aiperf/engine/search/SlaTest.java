package io.aiperf.engine.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.SummaryCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlaTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void parsesComparesAndMeasuresTheMargin() {
        final Sla lt = Sla.parse("--search-sla", "time_to_first_token:p95:lt:200");
        assertThat(lt).isEqualTo(new Sla("time_to_first_token", "p95", "lt", 200));
        assertThat(lt.met(150)).isTrue();
        assertThat(lt.met(200)).isFalse();
        assertThat(lt.margin(150)).isEqualTo(0.25);
        assertThat(lt.met(Double.NaN)).as("a missing value never meets").isFalse();
        final Sla ge = Sla.parse("--search-sla", "request_throughput:avg:ge:100");
        assertThat(ge.met(100)).isTrue();
        assertThat(ge.margin(80)).isEqualTo(-0.2);
        assertThat(Sla.parse("f", "x:p50:le:2.5").spec()).isEqualTo("x:p50:le:2.5");
    }

    @Test
    void badSpecsNameTheFieldAndTheReason() {
        assertThatThrownBy(() -> Sla.parse("--search-sla", "ttft:p95:200")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("--search-sla").hasMessageContaining("metric:stat:op:threshold");
        assertThatThrownBy(() -> Sla.parse("--search-sla", "ttft:p95:below:200"))
                .hasMessageContaining("lt, le, gt, ge");
        assertThatThrownBy(() -> Sla.parse("--search-sla", "ttft:p95:lt:fast")).hasMessageContaining("not a number");
    }

    @Test
    void anInvalidOrFailedPointNeverMeetsTheSlosHoweverGoodItsNumbers() throws Exception {
        final SearchSpec spec = new SearchSpec("concurrency", 1, 16, List.of(Sla.parse("f", "time_to_first_token:p95:lt:200")),
                "bisection", 8, null, 3, 0.95, 0.10, 20);
        final CellOutcome ok = outcome(0);
        final String good = "{\"time_to_first_token\":{\"unit\":\"ms\",\"p95\":10},\"request_throughput\":{\"unit\":\"requests/sec\",\"avg\":5},"
                + "\"validity\":{\"result\":\"%s\"}}";
        // no records beside these summaries: each SLO is decided on its value
        assertThat(decide(spec, ok, summary(good.formatted("ok"))).decision()).isEqualTo(ProbedPoint.Decision.MEETS);
        assertThat(decide(spec, ok, summary(good.formatted("warn"))).decision()).isEqualTo(ProbedPoint.Decision.MEETS);
        final ProbedPoint invalid = decide(spec, ok, summary(good.formatted("invalid")));
        assertThat(invalid.decision()).isEqualTo(ProbedPoint.Decision.INVALID);
        assertThat(invalid.reason()).contains("never counts as meeting");
        assertThat(decide(spec, outcome(1), summary(good.formatted("ok"))).decision())
                .isEqualTo(ProbedPoint.Decision.FAILED);
        assertThat(decide(spec, ok, null).decision()).isEqualTo(ProbedPoint.Decision.FAILED);
        final ProbedPoint slow = decide(spec, ok,
                summary("{\"time_to_first_token\":{\"unit\":\"ms\",\"p95\":250},\"validity\":{\"result\":\"ok\"}}"));
        assertThat(slow.decision()).isEqualTo(ProbedPoint.Decision.MISSES);
        assertThat(slow.reason()).contains("time_to_first_token:p95:lt:200 (was 250.00)");
        // an invalid later trial makes the whole point invalid, whatever the first said
        final Trial first = CapacitySearch.trial(spec, 1, "p/trial_0001", ok, summary(good.formatted("ok")),
                java.nio.file.Path.of("none.jsonl"));
        final Trial second = CapacitySearch.trial(spec, 2, "p/trial_0002", ok, summary(good.formatted("invalid")),
                java.nio.file.Path.of("none.jsonl"));
        assertThat(PointDecision.decide(spec, 1, 4, "p", List.of(first, second)).decision())
                .isEqualTo(ProbedPoint.Decision.INVALID);
        // a client short of CPU: set aside, and the point never meets on it alone
        final String late = "{\"time_to_first_token\":{\"unit\":\"ms\",\"p95\":10},\"client_health\":{\"wakeup_delay_p99_ms\":%s},"
                + "\"validity\":{\"result\":\"warn\"}}";
        final Trial starved = CapacitySearch.trial(spec, 1, "p/trial_0001", ok, summary(late.formatted("35")),
                java.nio.file.Path.of("none.jsonl"));
        final ProbedPoint limited = PointDecision.decide(spec, 1, 4, "p", List.of(starved));
        assertThat(limited.decision()).isEqualTo(ProbedPoint.Decision.INVALID);
        assertThat(limited.reason()).contains("client-limited").contains("35.0 ms");
        assertThat(PointDecision.undecided(spec, limited)).as("another trial may find the CPU").isTrue();
        final Trial calm = CapacitySearch.trial(spec, 2, "p/trial_0002", ok, summary(late.formatted("2")),
                java.nio.file.Path.of("none.jsonl"));
        assertThat(PointDecision.decide(spec, 1, 4, "p", List.of(starved, calm)).decision())
                .isEqualTo(ProbedPoint.Decision.MEETS);
        assertThat(PointDecision.undecided(spec, invalid)).as("an invalid measurement is not retried").isFalse();
    }

    private static ProbedPoint decide(final SearchSpec spec, final CellOutcome outcome, final CellSummary summary) {
        return PointDecision.decide(spec, 1, 4, "p", List.of(CapacitySearch.trial(spec, 1, "p/trial_0001", outcome,
                summary, java.nio.file.Path.of("none.jsonl"))));
    }

    /** A summary as its cell returns it (the codec reads a metric block by its unit). */
    private static CellSummary summary(final String json) throws Exception {
        return SummaryCodec.read(JSON.readTree(json));
    }

    private static CellOutcome outcome(final int exit) {
        return new CellOutcome(exit == 0 ? CellStatus.COMPLETED : CellStatus.FAILED, "p", List.of(), List.of(),
                exit == 0 ? null : "boom", 1, 1, 0, CellIdentity.single(), null);
    }
}
