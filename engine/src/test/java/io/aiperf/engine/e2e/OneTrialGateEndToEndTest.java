package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gates with one trial per side against the real mock (src-docs/gating.md, "One trial per side"): the requests
 * decide, the start-up is left out, a missing baseline can be required, and the reasons name the cause.
 */
class OneTrialGateEndToEndTest {
    @TempDir
    Path tmp;

    private Path run(final MockServer mock, final String name, final String... extra) {
        final Path dir = tmp.resolve(name);
        final java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("profile", "-m", "m", "-u",
                mock.url(), "--concurrency", "4", "--request-count", "60", "--isl", "16", "--osl", "4",
                "--artifact-dir", dir.toString()));
        args.addAll(java.util.List.of(extra));
        final Runs.Result r = Runs.aiperf(args.toArray(new String[0]));
        assertThat(r.exitCode()).as(r.err()).isIn(0, 1);
        return dir;
    }

    private Path rules(final String yaml) throws Exception {
        final Path rules = tmp.resolve("rules-" + Integer.toHexString(yaml.hashCode()) + ".yaml");
        Files.writeString(rules, yaml);
        return rules;
    }

    @Test
    void theSameServerTwicePassesAndTwiceItsTtftFailsWithTheEvidenceInTheReport() throws Exception {
        final Path rules = rules("rules:\n  - {metric: time_to_first_token, stat: p50, max_increase_pct: 10}\n");
        final Path base;
        final Path same;
        final Path slow;
        // A TTFT long enough that a busy client's few milliseconds of late wake-ups stay well inside the 10% limit.
        try (MockServer fast = MockServer.start(MockServerConfig.fast().withLatency(100, 1))) {
            base = run(fast, "base", "--streaming");
            same = run(fast, "same", "--streaming");
        }
        try (MockServer doubled = MockServer.start(MockServerConfig.fast().withLatency(200, 1))) {
            slow = run(doubled, "slow", "--streaming", "--gate", rules.toString(), "--baseline", base.toString());
        }
        final Runs.Result passed = Runs.aiperf("gate", "--rules", rules.toString(), "--baseline", base.toString(),
                "--candidate", same.toString());
        // Identical servers never fail. On a host so busy that the client's timers woke late, even a median moves
        // between two runs; the gate then withholds a verdict, and only when the interval of the change really
        // reaches past the limit.
        if (passed.exitCode() == io.aiperf.engine.ci.ExitCode.GATE_INCONCLUSIVE) {
            final JsonNode rule = Runs.json(same.resolve("gate_result.json")).path("rules").get(0);
            assertThat(Runs.json(same.resolve("gate_result.json")).path("verdict").asText()).isEqualTo("inconclusive");
            assertThat(rule.path("change_ci_high_pct").asDouble()).as(rule.toString()).isGreaterThan(10);
            assertThat(rule.path("change_ci_low_pct").asDouble()).as(rule.toString()).isLessThanOrEqualTo(10);
        } else {
            assertThat(passed.exitCode()).as(passed.out()).isZero();
            final JsonNode pass = Runs.json(same.resolve("gate_result.json")).path("rules").get(0);
            assertThat(pass.path("status").asText()).isEqualTo("passed");
            assertThat(pass.path("p_value").isNumber()).isTrue();
            // No warmup: each side's first wave (up to 4 requests, one per connection, sent before the first answer)
            // is left out, and the rest are compared.
            final Matcher counts = Pattern.compile("over (\\d+) and (\\d+) requests .*the first wave, (\\d+) and (\\d+) "
                    + "requests").matcher(pass.path("message").asText());
            assertThat(counts.find()).as(pass.path("message").asText()).isTrue();
            for (int side = 1; side <= 2; side++) {
                final int excluded = Integer.parseInt(counts.group(side + 2));
                assertThat(excluded).isBetween(1, 4);
                assertThat(Integer.parseInt(counts.group(side))).isEqualTo(60 - excluded);
            }
            assertThat(pass.path("message").asText()).contains("CI of the change");
        }

        final JsonNode fail = Runs.json(slow.resolve("gate_result.json"));
        assertThat(fail.path("verdict").asText()).isEqualTo("failed");
        final JsonNode rule = fail.path("rules").get(0);
        assertThat(rule.path("candidate").asDouble()).isGreaterThan(rule.path("baseline").asDouble() * 1.1);
        assertThat(rule.path("p_value").asDouble()).isLessThan(0.05);

        assertThat(Runs.aiperf("report", slow.toString()).exitCode()).isZero();
        final String html = Files.readString(slow.resolve("report.html"));
        // The verdict leads the page, then the gated metrics with the numbers of gate_result.json.
        assertThat(html.indexOf("<h2 id=\"verdict\">Verdict: FAILED</h2>")).isNotNegative()
                .isLessThan(html.indexOf("<h2 id=\"gate\">")).isLessThan(html.indexOf("<h2 id=\"throughput-latency\">"));
        final String gate = section(html, "gate");
        assertThat(gate).contains("<th>baseline</th><th>candidate</th><th>change</th><th>interval of the change</th>"
                + "<th>limit</th><th>p</th>");
        assertThat(gate).contains(String.format(Locale.ROOT, "[%+.1f%%, %+.1f%%]",
                rule.path("change_ci_low_pct").asDouble(), rule.path("change_ci_high_pct").asDouble()));
        assertThat(rule.path("change_ci_low_pct").asDouble()).isGreaterThan(10); // the whole interval past the limit
        assertThat(gate).contains(String.format(Locale.ROOT, ">%.3g<", rule.path("p_value").asDouble()))
                .contains(String.format(Locale.ROOT, ">%+.1f%%<", rule.path("delta_pct").asDouble()))
                .contains(">failed<");
        // aiperf report of a gated run draws the baseline the gate recorded beside it.
        assertThat(section(html, "throughput-latency")).contains("data-series=\"baseline\"")
                .contains("data-series=\"candidate\"");
        assertThat(html).contains("<b>baseline</b>: 1 cell(s) in 1 sweep point(s) against <b>candidate</b>: 1 cell(s)");
    }

    @Test
    void aTtftRuleOnARunWithoutStreamingSaysThatTtftNeedsStreaming() throws Exception {
        final Path rules = rules("rules:\n  - {metric: time_to_first_token, stat: p50, max: 1000}\n");
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            final Path dir = run(mock, "plain", "--gate", rules.toString());
            final JsonNode rule = Runs.json(dir.resolve("gate_result.json")).path("rules").get(0);
            assertThat(rule.path("status").asText()).isEqualTo("failed");
            assertThat(rule.path("message").asText()).contains("ran without --streaming")
                    .doesNotContain("no valid request");
        }
    }

    @Test
    void aRequiredBaselineThatIsMissingOrEmptyFailsAndSaysWhereTheGateLooked() throws Exception {
        final Path rules = rules("rules:\n  - {metric: request_latency, stat: p50, max_increase_pct: 10}\n");
        final Path cand;
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            cand = run(mock, "cand", "--streaming");
        }
        final Path missing = tmp.resolve("lost-baseline");
        final Runs.Result lenient = Runs.aiperf("gate", "--rules", rules.toString(), "--baseline", missing.toString(),
                "--candidate", cand.toString());
        assertThat(lenient.exitCode()).isEqualTo(2); // a path that does not exist is a typo unless it is required

        final Runs.Result flag = Runs.aiperf("gate", "--rules", rules.toString(), "--baseline", missing.toString(),
                "--candidate", cand.toString(), "--require-baseline");
        assertThat(flag.exitCode()).isEqualTo(1);
        assertThat(flag.out()).contains("a baseline is required").contains(missing.toAbsolutePath() + " (does not exist)");

        final Path empty = Files.createDirectories(tmp.resolve("empty-baseline"));
        final Path required = rules("require_baseline: true\nrules:\n"
                + "  - {metric: request_latency, stat: p50, max_increase_pct: 10}\n");
        final Runs.Result file = Runs.aiperf("gate", "--rules", required.toString(), "--baseline", empty.toString(),
                "--candidate", cand.toString());
        assertThat(file.exitCode()).isEqualTo(1);
        assertThat(Runs.json(cand.resolve("gate_result.json")).path("rules").get(0).path("message").asText())
                .contains(empty.toAbsolutePath() + " (holds no");
    }

    @Test
    void aGatedSweepWithTrialsListsEachCellOnceWithTheIntervalsOfItsReport() throws Exception {
        final Path rules = rules("rules:\n  - {metric: request_latency, stat: p50, max: 60000}\n");
        final Path dir = tmp.resolve("sweep");
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(2, 1))) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--concurrency", "1,2,3", "--num-profile-runs", "3", "--request-count", "4", "--isl", "8",
                    "--osl", "2", "--artifact-dir", dir.toString(), "--gate", rules.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
        }
        final String gated = Files.readString(dir.resolve("report.html"));
        final Path plain = tmp.resolve("plain.html");
        assertThat(Runs.aiperf("report", dir.toString(), "-o", plain.toString()).exitCode()).isZero();
        final String reported = Files.readString(plain);
        // No baseline: the candidate alone, each of its 9 cells once.
        assertThat(gated).contains("<b>candidate</b>: 9 cell(s) in 3 sweep point(s);");
        assertThat(reported).contains("<b>candidate</b>: 9 cell(s) in 3 sweep point(s);");
        final String cells = section(gated, "cells");
        assertThat(rows(cells)).isEqualTo(9);
        final Matcher ids = Pattern.compile("<tr><td>([^<]+)</td><td>([^<]+)</td>").matcher(cells);
        final java.util.Set<String> seen = new java.util.HashSet<>();
        while (ids.find()) {
            assertThat(seen.add(ids.group(1) + " " + ids.group(2))).as("cell " + ids.group(2) + " listed once").isTrue();
        }
        assertThat(seen).hasSize(9);
        assertThat(section(gated, "across-trials")).isNotEmpty().isEqualTo(section(reported, "across-trials"));
        assertThat(section(gated, "across-trials")).contains("<td>concurrency_3</td><td align=\"right\">3</td>");
        assertThat(gated).contains("<h2 id=\"verdict\">Verdict: PASSED</h2>");
    }

    private static String section(final String html, final String id) {
        final int start = html.indexOf("<h2 id=\"" + id + "\">");
        assertThat(start).as(id).isNotNegative();
        final int end = html.indexOf("<h2 ", start + 4);
        return html.substring(start, end < 0 ? html.length() : end);
    }

    private static int rows(final String table) {
        return table.split("<tr><td>", -1).length - 1;
    }
}
