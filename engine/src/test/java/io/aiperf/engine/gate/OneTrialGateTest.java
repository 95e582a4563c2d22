package io.aiperf.engine.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.YamlLoader;
import io.aiperf.engine.metrics.Stats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One trial per side: the verdicts of relative rules judged on the requests of known distributions. */
class OneTrialGateTest {
    @TempDir
    Path tmp;

    /** Normal values by Box-Muller from a SplittableRandom (nearby seeds of java.util.Random start alike). */
    private static double[] normal(final long seed, final int n, final double mean, final double sd) {
        final java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        return java.util.stream.IntStream.range(0, n).mapToDouble(i -> mean + sd
                * Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble())).toArray();
    }

    private static double[] join(final double[] a, final double... b) {
        final double[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A one-cell run: its summary (with a warmup, so no request is left out) and, optionally, its records. */
    private RunData runOf(final String name, final double[] ttft, final boolean records) throws Exception {
        return runOf(name, ttft, records, 0.5);
    }

    private RunData runOf(final String name, final double[] ttft, final boolean records, final double wakeupMillis)
            throws Exception {
        final Path dir = Files.createDirectories(tmp.resolve(name));
        final Stats s = Stats.of(ttft, ttft.length);
        final StringBuilder metric = new StringBuilder("{\"unit\": \"ms\", \"count\": " + ttft.length);
        for (final String stat : new String[] {"avg", "p50", "p90", "p99"}) {
            metric.append(", \"").append(stat).append("\": ").append(s.get(stat));
        }
        Files.writeString(dir.resolve("profile_export_aiperf.json"), "{\"request_count\": {\"unit\": \"requests\", "
                + "\"avg\": " + ttft.length + "}, \"warmup_metrics\": {}, \"client_health\": {\"wakeup_delay_p99_ms\": "
                + wakeupMillis + "}, \"time_to_first_token\": " + metric + "}}");
        if (records) {
            final StringBuilder jsonl = new StringBuilder();
            for (int i = 0; i < ttft.length; i++) {
                jsonl.append("{\"metadata\":{\"request_start_ns\":").append(i * 100L).append(",\"request_end_ns\":")
                        .append(i * 100L + 50).append("},\"metrics\":{\"time_to_first_token\":{\"value\":")
                        .append(ttft[i]).append(",\"unit\":\"ms\"}}}\n");
            }
            Files.writeString(dir.resolve("profile_export.jsonl"), jsonl);
        }
        return RunData.load(List.of(dir));
    }

    private static RuleResult gate(final String rule, final RunData base, final RunData cand) {
        final List<GateRule> rules = GateRulesLoader.parse(YamlLoader.parse(rule, "t", Map.of()), "t");
        return GateEvaluator.evaluate(rules, base, cand).results().get(0);
    }

    private static final String P50 = "rules:\n  - {metric: time_to_first_token, stat: p50, max_increase_pct: 10}\n";

    @Test
    void aSmallRealChangeWithinTheLimitPasses() throws Exception {
        // A busy machine shifts a whole run by a few percent: real for these requests, and inside the limit.
        final RuleResult r = gate(P50, runOf("a", normal(13, 300, 20, 0.5), true),
                runOf("b", normal(14, 300, 21.2, 0.5), true));
        assertThat(r.pValue()).isLessThan(0.05);
        assertThat(r.status()).isEqualTo(Status.PASSED);
    }

    @Test
    void theSameDistributionPassesWithItsInterval() throws Exception {
        final RuleResult r = gate(P50, runOf("a", normal(1, 200, 20, 2), true), runOf("b", normal(2, 200, 20, 2), true));
        assertThat(r.status()).isEqualTo(Status.PASSED);
        assertThat(r.pValue()).isGreaterThan(0.05);
        assertThat(r.message()).contains("95% CI of the change").contains("over 200 and 200 requests");
    }

    @Test
    void aDoubledDistributionFailsWithAPValue() throws Exception {
        final RuleResult r = gate(P50, runOf("a", normal(3, 200, 20, 2), true), runOf("b", normal(4, 200, 40, 4), true));
        assertThat(r.status()).isEqualTo(Status.FAILED);
        assertThat(r.deltaPct()).isBetween(90.0, 110.0);
        assertThat(r.pValue()).isLessThan(0.01);
        assertThat(r.message()).contains("above the +10% limit").contains("CI of the change");
    }

    @Test
    void aChangeNotToldFromNoiseIsReportedAsSuchNotAsAFailure() throws Exception {
        // 15 requests each, widely spread, the candidate's 15% longer: past the limit, but the interval holds zero.
        final double[] base = normal(5, 15, 20, 8);
        final RuleResult r = gate("rules:\n  - {metric: time_to_first_token, stat: avg, max_increase_pct: 10}\n",
                runOf("a", base, true), runOf("b", java.util.Arrays.stream(base).map(x -> x * 1.15).toArray(), true));
        assertThat(r.deltaPct()).isCloseTo(15.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.pValue()).isGreaterThan(0.05);
        assertThat(r.status()).isEqualTo(Status.PASSED);
        assertThat(r.message()).contains("the change is not significant");
    }

    @Test
    void aRealChangeWhoseIntervalStraddlesTheLimitIsInconclusive() throws Exception {
        final RuleResult r = gate("rules:\n  - {metric: time_to_first_token, stat: avg, max_increase_pct: 10}\n",
                runOf("a", normal(7, 300, 20, 4), true), runOf("b", normal(8, 300, 22.4, 4), true));
        assertThat(r.deltaPct()).isGreaterThan(10);
        assertThat(r.pValue()).isLessThan(0.05);
        assertThat(r.status()).isEqualTo(Status.INCONCLUSIVE);
        assertThat(r.message()).contains("is a real change").contains("cannot say whether it is past +10% max")
                .contains("--request-count");
    }

    @Test
    void requestsThatMovedThoughTheirP99CannotSayHowFarAreInconclusive() throws Exception {
        // Bodies 20 ms against 30 ms; the p99 is set by a few 100 ms pauses on both sides.
        final RuleResult r = gate("rules:\n  - {metric: time_to_first_token, stat: p99, max_increase_pct: 10}\n",
                runOf("a", join(normal(9, 198, 20, 0.5), 100, 100), true),
                runOf("b", join(normal(10, 197, 30, 0.5), 100, 100, 100), true));
        assertThat(r.deltaPct()).isGreaterThan(10);
        assertThat(r.status()).isEqualTo(Status.INCONCLUSIVE);
        assertThat(r.message()).contains("is a real change (rank test p=");
    }

    @Test
    void significanceWithOneTrialSaysTheRequestsWereComparedInstead() throws Exception {
        final RuleResult r = gate("significance: true\n" + P50, runOf("a", normal(17, 100, 20, 1), true),
                runOf("b", normal(18, 100, 20, 1), true));
        assertThat(r.status()).isEqualTo(Status.PASSED);
        assertThat(r.message()).contains("CI of the change")
                .contains("one trial per side, so the requests were compared (Welch's t-test needs 2+ trials)");
    }

    @Test
    void significanceWithOneTrialAndNoRecordsSaysWhatItDidInstead() throws Exception {
        final RuleResult r = gate("significance: true\n" + P50, runOf("a", normal(11, 50, 20, 1), false),
                runOf("b", normal(12, 50, 20, 1), false));
        assertThat(r.status()).isEqualTo(Status.PASSED);
        assertThat(r.message()).contains("Welch's t-test needs 2+ trials per side (here 1 and 1)")
                .contains("no per-request records").contains("compared as they are");
    }

    @Test
    void aChangeWithinTheLatenessOfAClientShortOfCpuIsInconclusive() throws Exception {
        final String p99 = "rules:\n  - {metric: time_to_first_token, stat: p99, max_increase_pct: 10}\n";
        final RuleResult starved = gate(p99, runOf("a", normal(15, 200, 20, 1), true, 0.5),
                runOf("b", normal(16, 200, 30, 1), true, 12));
        assertThat(starved.status()).isEqualTo(Status.INCONCLUSIVE);
        assertThat(starved.message()).contains("within the client's own lateness").contains("12 ms late")
                .contains("idle cores").doesNotContain("ulimit");
        final RuleResult real = gate(p99, runOf("c", normal(15, 200, 20, 1), true, 0.5),
                runOf("d", normal(16, 200, 30, 1), true, 8));
        assertThat(real.status()).isEqualTo(Status.FAILED); // 10 ms is more than 8 ms of lateness
        // The median moved with every request: 1% of late wake-ups cannot have moved it.
        assertThat(gate(P50, runOf("e", normal(15, 200, 20, 1), true, 0.5), runOf("f", normal(16, 200, 30, 1), true, 26))
                .status()).isEqualTo(Status.FAILED);
    }

    @Test
    void anIntervalIsPastALimitInTheMetricsBadDirection() {
        final java.util.function.BiFunction<Double, Double, RequestComparison> ci = (lo, hi) -> new RequestComparison(
                new BootstrapComparison.Result(100, 100, (lo + hi) / 2, lo, hi, 0.001, 1, 100, 100, 2000),
                new RankTest.Result(0.001, 0.9), 0, 0, 0.05);
        final java.util.function.Function<String, GateRule> rule = yaml -> GateRulesLoader.parse(
                YamlLoader.parse("rules:\n  - " + yaml + "\n", "t", Map.of()), "t").get(0);
        final GateRule ttft = rule.apply("{metric: time_to_first_token, stat: p50, max_regression_pct: 5}");
        final GateRule perUser = rule.apply("{metric: output_token_throughput_per_user, stat: avg, max_regression_pct: 5}");
        final GateRule decrease = rule.apply("{metric: output_token_throughput_per_user, stat: avg, max_decrease_pct: 5}");
        assertThat(ci.apply(6.0, 9.0).beyond(ttft)).isTrue();
        assertThat(ci.apply(4.0, 9.0).beyond(ttft)).isFalse();
        assertThat(ci.apply(-9.0, -6.0).beyond(ttft)).isFalse();     // faster is no regression
        assertThat(ci.apply(-9.0, -6.0).beyond(perUser)).isTrue();   // fewer tokens per second per user is
        assertThat(ci.apply(-9.0, -4.0).beyond(perUser)).isFalse();
        assertThat(ci.apply(-9.0, -6.0).beyond(decrease)).isTrue();
        assertThat(ci.apply(6.0, 9.0).beyond(decrease)).isFalse();
    }

    @Test
    void aTtftRuleOnANonStreamingCandidateNamesStreaming() throws Exception {
        final Path dir = Files.createDirectories(tmp.resolve("plain"));
        Files.writeString(dir.resolve("profile_export_aiperf.json"), "{\"request_count\": {\"unit\": \"requests\", "
                + "\"avg\": 50}, \"request_latency\": {\"unit\": \"ms\", \"avg\": 30}, \"input_config\": "
                + "{\"endpoint\": {\"urls\": [\"http://127.0.0.1:1\"]}}}");
        final RuleResult r = gate("rules:\n  - {metric: time_to_first_token, stat: p50, max: 100}\n", null,
                RunData.load(List.of(dir)));
        assertThat(r.status()).isEqualTo(Status.FAILED);
        assertThat(r.message()).contains("ran without --streaming");
    }
}
