package io.aiperf.engine.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.YamlLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GateEvaluatorTest {
    @TempDir
    Path tmp;

    private static GateRule rule(final String yaml) {
        return GateRulesLoader.parse(YamlLoader.parse("rules:\n  - " + yaml + "\n", "t", Map.of()), "t").get(0);
    }

    private static RuleResult eval(final String yaml, final double[] base, final double[] cand) {
        return GateEvaluator.evaluate(rule(yaml), "base", base, cand);
    }

    private static double[] v(final double... values) {
        return values;
    }

    @Test
    void directionComesFromTheMetric() {
        final String rule = "{metric: %s, stat: avg, max_regression_pct: 5}";
        assertThat(eval(rule.formatted("time_to_first_token"), v(100), v(110)).status()).isEqualTo(Status.FAILED);
        assertThat(eval(rule.formatted("time_to_first_token"), v(100), v(90)).status()).isEqualTo(Status.PASSED);
        assertThat(eval(rule.formatted("output_token_throughput"), v(100), v(90)).status()).isEqualTo(Status.FAILED);
        assertThat(eval(rule.formatted("output_token_throughput"), v(100), v(110)).status()).isEqualTo(Status.PASSED);
    }

    @Test
    void absoluteLimitsNeedNoBaseline() {
        final RuleResult over = eval("{metric: request_latency, stat: p50, max: 800}", v(), v(850));
        assertThat(over.status()).isEqualTo(Status.FAILED);
        assertThat(over.message()).contains("850 ms").contains("800 ms");
        assertThat(eval("{metric: request_latency, stat: p50, max: 800}", v(), v(700)).status()).isEqualTo(Status.PASSED);
        assertThat(eval("{metric: request_throughput, stat: avg, min: 10, criticality: unstable}", v(), v(5)).status())
                .isEqualTo(Status.UNSTABLE);
    }

    @Test
    void relativeLimitsAndCriticality() {
        final RuleResult r = eval("{metric: time_to_first_token, stat: p99, max_increase_pct: 10}", v(20), v(40));
        assertThat(r.status()).isEqualTo(Status.FAILED);
        assertThat(r.deltaPct()).isEqualTo(100.0);
        assertThat(r.message()).contains("20 ms").contains("40 ms").contains("+10% limit");
        assertThat(eval("{metric: output_token_throughput, stat: avg, max_decrease_pct: 5, criticality: unstable}",
                v(100), v(94)).status()).isEqualTo(Status.UNSTABLE);
        assertThat(eval("{metric: output_token_throughput, stat: avg, max_decrease_pct: 5}", v(100), v(96)).status())
                .isEqualTo(Status.PASSED);
    }

    @Test
    void noiseFloorAbsorbsSmallAbsoluteChanges() {
        final String rule = "{metric: time_to_first_token, stat: p50, max_increase_pct: 10, noise_floor: 2}";
        assertThat(eval(rule, v(10), v(11.5)).status()).isEqualTo(Status.PASSED); // +15% but only 1.5 ms
        assertThat(eval(rule, v(10), v(12.5)).status()).isEqualTo(Status.FAILED);
    }

    @Test
    void significanceSeparatesRegressionsFromNoise() {
        final double[] base = v(100, 104, 96, 102, 98);
        final RuleResult clear = eval("{metric: time_to_first_token, stat: avg, max_increase_pct: 10, significance: true}",
                base, v(120, 124, 116, 122, 118));
        assertThat(clear.status()).isEqualTo(Status.FAILED);
        assertThat(clear.pValue()).isLessThan(0.001);
        assertThat(clear.effectSize()).isGreaterThan(3);
        final double[] noisy = v(102, 106, 98, 104, 100); // +2%, well inside the trial spread
        // The trials cannot tell whether +2% is above a 1% limit: neither pass nor fail, but say what would tell.
        final RuleResult unclear = eval("{metric: time_to_first_token, stat: avg, max_increase_pct: 1, significance: true}",
                base, noisy);
        assertThat(unclear.status()).isEqualTo(Status.INCONCLUSIVE);
        assertThat(unclear.message()).contains("confidence interval of the change").contains("straddles the +1% limit")
                .contains("more trials");
        // The same noise well inside a 10% limit passes: the whole interval is below it.
        assertThat(eval("{metric: time_to_first_token, stat: avg, max_increase_pct: 10, significance: true}", base, noisy)
                .status()).isEqualTo(Status.PASSED);
        assertThat(eval("{metric: time_to_first_token, stat: avg, max_increase_pct: 1}", base, noisy).status())
                .isEqualTo(Status.FAILED);
    }

    @Test
    void welchMatchesAKnownValue() {
        // Two samples with a textbook answer: t = -2.0, df = 8 (equal n and variances), p = 0.0805.
        final WelchTest.Result r = WelchTest.test(v(1, 2, 3, 4, 5), v(3, 4, 5, 6, 7));
        assertThat(r.t()).isCloseTo(2.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.degreesOfFreedom()).isCloseTo(8.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.pValue()).isCloseTo(0.0805, org.assertj.core.data.Offset.offset(1e-3));
    }

    @Test
    void missingOrUnusableBaselinesAreInactiveNotSilent() {
        final String rule = "{metric: time_to_first_token, stat: p99, max_increase_pct: 10}";
        final RuleResult none = eval(rule, v(), v(40));
        assertThat(none.status()).isEqualTo(Status.INACTIVE);
        assertThat(none.message()).contains("no baseline");
        assertThat(eval(rule, v(0), v(40)).message()).contains("baseline is 0");
        // a baseline value that is not a number cannot say "no change": inconclusive, never a silent pass
        assertThat(eval(rule, v(Double.NaN), v(40)).status()).isEqualTo(Status.INCONCLUSIVE);
        assertThat(eval(rule, v(Double.POSITIVE_INFINITY), v(40)).status()).isEqualTo(Status.INCONCLUSIVE);
        assertThat(eval(rule, v(20), v(Double.POSITIVE_INFINITY)).status()).isEqualTo(Status.FAILED);
        assertThat(new GateResult(List.of(none)).exitCode()).isZero();
        // A candidate without the metric measured nothing: that fails, for relative and absolute rules alike.
        final RuleResult missing = eval(rule, v(20), v());
        assertThat(missing.status()).isEqualTo(Status.FAILED);
        assertThat(missing.message()).contains("candidate has no time_to_first_token p99");
        assertThat(eval("{metric: time_to_first_token, stat: p99, max: 100, criticality: unstable}", v(), v()).status())
                .isEqualTo(Status.FAILED);
        assertThat(new GateResult(List.of(none, missing)).exitCode()).isEqualTo(1);
    }

    @Test
    void unknownNamesListTheValidOnes() {
        assertThatThrownBy(() -> rule("{metric: time_to_first_tokn, stat: p99, max: 1}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("did you mean 'time_to_first_token'")
                .hasMessageContaining("request_latency");
        assertThatThrownBy(() -> rule("{metric: time_to_first_token, stat: p98, max: 1}"))
                .hasMessageContaining("unknown stat 'p98'").hasMessageContaining("p99");
        assertThatThrownBy(() -> rule("{metric: time_to_first_token, stat: p99}")).hasMessageContaining("needs a limit");
        // a sweep-line metric has only its time-weighted statistics: a p1 or a count would never be found
        assertThatThrownBy(() -> rule("{metric: effective_concurrency, stat: p1, min: 1}"))
                .hasMessageContaining("unknown stat 'p1' for effective_concurrency")
                .hasMessageContaining("[avg, min, max, p50, p90, p95, p99, std]");
        assertThat(rule("{metric: effective_concurrency, stat: p50, min: 1}")).isNotNull();
    }

    @Test
    void perCellRulesOnASweep() throws Exception {
        final Path base = tmp.resolve("base");
        final Path cand = tmp.resolve("cand");
        summary(base.resolve("concurrency_8/profile_runs/run_0001"), 20);
        summary(base.resolve("concurrency_8/profile_runs/run_0002"), 22);
        summary(base.resolve("concurrency_64"), 50);
        summary(cand.resolve("concurrency_8"), 21);
        summary(cand.resolve("concurrency_64"), 80);
        final List<GateRule> rules = GateRulesLoader.parse(YamlLoader.parse("""
                rules:
                  - {metric: time_to_first_token, stat: p99, max_increase_pct: 10, cell: "concurrency_64"}
                  - {metric: time_to_first_token, stat: p99, max_increase_pct: 10}
                """, "t", Map.of()), "t");
        final GateResult r = GateEvaluator.evaluate(rules, RunData.load(List.of(base)), RunData.load(List.of(cand)));
        assertThat(r.results()).extracting(RuleResult::cell, RuleResult::status).containsExactly(
                org.assertj.core.groups.Tuple.tuple("concurrency_64", Status.FAILED),
                org.assertj.core.groups.Tuple.tuple("concurrency_64", Status.FAILED),
                org.assertj.core.groups.Tuple.tuple("concurrency_8", Status.PASSED));
        assertThat(r.results().get(2).baseline()).isEqualTo(21.0); // mean of two trials
        assertThat(r.results().get(2).baselineTrials()).isEqualTo(2);
        assertThat(r.exitCode()).isEqualTo(1);
    }

    @Test
    void aBaselineOrAnImportedResultWithNoValidRequestPassesNothing() throws Exception {
        final List<GateRule> rules = GateRulesLoader.parse(YamlLoader.parse("""
                rules:
                  - {metric: time_to_first_token, stat: p99, max_increase_pct: 10}
                """, "t", Map.of()), "t");
        summary(tmp.resolve("cand"), 20);
        // Every request failed: the summary counts errors and no valid request.
        final Path failed = tmp.resolve("failed");
        Files.createDirectories(failed);
        Files.writeString(failed.resolve("profile_export_aiperf.json"), "{\"schema_version\": \"1.5\", "
                + "\"error_request_count\": {\"unit\": \"requests\", \"avg\": 40}}");
        // inference-perf with zero successes: its latencies are zeros.
        final Path imported = tmp.resolve("imported");
        Files.createDirectories(imported);
        Files.writeString(imported.resolve("summary_lifecycle_metrics.json"), """
                {"successes": {"count": 0, "latency": {"time_to_first_token": {"mean": 0, "median": 0, "p99": 0}},
                  "throughput": {"requests_per_sec": 0}}, "failures": {"count": 40}}
                """);
        // vLLM bench serve with every request failed: zero completed, its latencies zeros.
        final Path vllm = tmp.resolve("vllm-all-failed.json");
        Files.writeString(vllm, """
                {"backend": "vllm", "model_id": "m", "num_prompts": 40, "duration": 3.1, "completed": 0,
                 "failed": 40, "request_throughput": 0.0, "output_throughput": 0.0, "total_token_throughput": 0.0,
                 "mean_ttft_ms": 0.0, "median_ttft_ms": 0.0, "std_ttft_ms": 0.0, "p99_ttft_ms": 0.0,
                 "mean_e2el_ms": 0.0, "median_e2el_ms": 0.0, "std_e2el_ms": 0.0, "p99_e2el_ms": 0.0}
                """);
        for (final Path base : List.of(failed, imported.resolve("summary_lifecycle_metrics.json"), vllm)) {
            final GateResult r = GateEvaluator.evaluate(rules, RunData.load(List.of(base)),
                    RunData.load(List.of(tmp.resolve("cand"))));
            assertThat(r.results()).as(base.toString()).singleElement().satisfies(result -> {
                assertThat(result.status()).isEqualTo(Status.INCONCLUSIVE);
                assertThat(result.message()).contains("no valid request");
            });
            assertThat(r.exitCode()).isNotZero();
        }
    }

    private static void summary(final Path dir, final double ttftP99) throws Exception {
        Files.createDirectories(dir);
        final var root = new ObjectMapper().createObjectNode();
        root.put("schema_version", "1.5");
        root.putObject("time_to_first_token").put("unit", "ms").put("p99", ttftP99).put("avg", ttftP99 / 2);
        root.putObject("request_throughput").put("unit", "requests/sec").put("avg", 10.0);
        Files.writeString(dir.resolve("profile_export_aiperf.json"), root.toString());
    }
}
