package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that cannot support a verdict gets none: each validity check provoked against the mock makes the gate
 * inconclusive (exit 4) with the reason and the fix, while the same rules on a clean run pass.
 */
class ValidityEndToEndTest {
    private static final String RULES = "rules:\n  - {metric: request_latency, stat: avg, max: 60000}\n";

    @TempDir
    Path tmp;

    private Path rules(final String text) throws Exception {
        final Path p = tmp.resolve("rules-" + Math.abs(text.hashCode()) + ".yaml");
        Files.writeString(p, text);
        return p;
    }

    private Runs.Result gate(final Path rules, final Path candidate, final Path... baselines) {
        final List<String> args = new ArrayList<>(List.of("gate", "--rules", rules.toString(), "--candidate",
                candidate.toString()));
        for (final Path b : baselines) {
            args.add("--baseline");
            args.add(b.toString());
        }
        return Runs.aiperf(args.toArray(String[]::new));
    }

    private static JsonNode check(final Path dir, final String name) throws Exception {
        for (final JsonNode c : Runs.json(dir.resolve("profile_export_aiperf.json")).path("validity").path("checks")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no check " + name);
    }

    @Test
    void halfTheRequestsFailingIsAnInvalidRunAndTheGateWithholdsItsVerdict() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withErrorRate(50))) {
            final Path dir = tmp.resolve("errors");
            final Runs.Result run = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--concurrency", "4",
                    "--request-count", "120", "--isl", "16", "--osl", "4", "--random-seed", "3", "--artifact-dir",
                    dir.toString());
            assertThat(run.exitCode()).isZero();
            assertThat(run.out()).contains("Validity invalid (error_share): ").contains("fix the errors first");
            assertThat(check(dir, "error_share").path("result").asText()).isEqualTo("invalid");
            final Runs.Result r = gate(rules(RULES), dir);
            assertThat(r.exitCode()).as(r.out()).isEqualTo(4);
            assertThat(r.out()).contains("Gate: INCONCLUSIVE").contains("error_share").contains("To fix:");
            final JsonNode rule = Runs.json(dir.resolve("gate_result.json")).path("rules").get(0);
            assertThat(rule.path("status").asText()).isEqualTo("inconclusive");
        }
    }

    @Test
    void aP99RuleOnFiveRequestsIsInconclusiveAndTheSameRulesPassOnACleanRun() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path small = tmp.resolve("five");
            Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "5", "--isl", "16", "--osl", "4",
                    "--artifact-dir", small.toString());
            final Path p99 = rules("rules:\n  - {metric: request_latency, stat: p99, max: 60000}\n");
            final Runs.Result r = gate(p99, small);
            assertThat(r.exitCode()).as(r.out()).isEqualTo(4);
            assertThat(r.out()).contains("p99 of request_latency comes from 5 samples; it needs at least 100");
            final Path clean = tmp.resolve("clean");
            Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--concurrency", "4", "--request-count", "120",
                    "--isl", "16", "--osl", "4", "--artifact-dir", clean.toString());
            assertThat(Runs.json(clean.resolve("profile_export_aiperf.json")).path("validity").path("result").asText())
                    .isIn("ok", "warn"); // a busy machine may warn about the client; nothing is invalid
            assertThat(gate(p99, clean).exitCode()).isZero();
            assertThat(gate(rules(RULES), clean).exitCode()).isZero();
        }
    }

    @Test
    void aRateTheServerCannotTakeIsAnInvalidRun() throws Exception {
        // 200 req/s asked; one request at a time, each about 50 ms: the schedule cannot be kept.
        try (MockServer slow = MockServer.start(MockServerConfig.fast().withLatency(50, 1))) {
            final Path dir = tmp.resolve("overload");
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", slow.url(), "--request-rate", "200",
                    "--arrival-pattern", "constant", "--concurrency", "1", "--benchmark-duration", "1", "--isl", "8",
                    "--osl", "2", "--artifact-dir", dir.toString()).exitCode()).isZero();
            final JsonNode achieved = check(dir, "achieved_rate");
            assertThat(achieved.path("result").asText()).isEqualTo("invalid");
            assertThat(achieved.path("fix").asText()).contains("lower --request-rate");
            final Runs.Result r = gate(rules(RULES), dir);
            assertThat(r.exitCode()).isEqualTo(4);
            assertThat(r.out()).contains("achieved_rate");
        }
    }

    @Test
    void aClientShortOfCpuIsSeenInItsOwnWakeUps() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 2))) {
            final Path dir = tmp.resolve("starved");
            CpuHogs.whileStarved(4, () -> Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--concurrency", "2", "--benchmark-duration", "3", "--isl", "8", "--osl", "16", "--artifact-dir",
                    dir.toString()));
            final JsonNode wakeup = check(dir, "client_wakeup");
            assertThat(wakeup.path("figure").asDouble()).as("p99 wake-up delay, ms").isGreaterThan(1.0);
            final Runs.Result r = gate(rules(RULES + "validity: {client_wakeup: {invalid: 1}}\n"), dir);
            assertThat(r.exitCode()).as(r.out()).isEqualTo(4);
            assertThat(r.out()).contains("client_wakeup").contains("idle cores");
        }
    }

    @Test
    void aBaselineFromAnotherModelIsNotComparedWith() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path base = tmp.resolve("base");
            final Path cand = tmp.resolve("cand");
            Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--concurrency", "2", "--request-count", "20",
                    "--isl", "16", "--osl", "4", "--artifact-dir", base.toString());
            Runs.aiperf("profile", "-m", "other", "-u", mock.url(), "--concurrency", "2", "--request-count", "20",
                    "--isl", "16", "--osl", "4", "--artifact-dir", cand.toString());
            final JsonNode env = Runs.json(cand.resolve("profile_export_aiperf.json")).path("environment");
            assertThat(env.path("fingerprint").path("model").asText()).isEqualTo("other");
            assertThat(env.path("server").path("server_header").asText()).isEqualTo("aiperf-java-mock");
            assertThat(env.path("fingerprint").path("served_model").asText()).isEqualTo("mock-model (aiperf-java)");
            assertThat(env.path("engine").path("commit").asText()).isNotEmpty();
            final Path relative = rules("require_same: [model, server]\nrules:\n"
                    + "  - {metric: request_latency, stat: avg, max_increase_pct: 500}\n");
            final Runs.Result r = gate(relative, cand, base);
            assertThat(r.exitCode()).as(r.out()).isEqualTo(4);
            assertThat(r.out()).contains("another environment: model (m vs other)").doesNotContain("server (");
            // The same models compare as usual.
            assertThat(gate(relative, base, base).exitCode()).isZero();
        }
    }

    /** The protocol is compared by default: an HTTP/1.1 baseline does not judge an HTTP/2 candidate. */
    @Test
    void aBaselineOverAnotherProtocolIsNotComparedWithByDefault() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path base = tmp.resolve("h1");
            Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--concurrency", "2", "--request-count", "20",
                    "--isl", "16", "--osl", "4", "--artifact-dir", base.toString());
            assertThat(Runs.json(base.resolve("profile_export_aiperf.json")).path("environment").path("fingerprint")
                    .path("protocol").asText()).isEqualTo("HTTP/1.1");
            final Path cand = tmp.resolve("h2");
            final Path older = tmp.resolve("older");
            for (final Path copy : List.of(cand, older)) {
                Files.createDirectories(copy);
                final com.fasterxml.jackson.databind.node.ObjectNode summary =
                        (com.fasterxml.jackson.databind.node.ObjectNode) Runs.json(base.resolve("profile_export_aiperf.json"));
                final com.fasterxml.jackson.databind.node.ObjectNode fingerprint =
                        (com.fasterxml.jackson.databind.node.ObjectNode) summary.path("environment").path("fingerprint");
                if (copy == cand) {
                    fingerprint.put("protocol", "HTTP/2");
                } else {
                    fingerprint.putNull("protocol");
                }
                Runs.JSON.writeValue(copy.resolve("profile_export_aiperf.json").toFile(), summary);
            }
            final Path relative = rules("rules:\n  - {metric: request_latency, stat: avg, max_increase_pct: 500}\n");
            final Runs.Result r = gate(relative, cand, base);
            assertThat(r.exitCode()).as(r.out()).isEqualTo(4);
            assertThat(r.out()).contains("protocol (HTTP/1.1 vs HTTP/2)");
            // A baseline that recorded no protocol (an older engine) is compared as before.
            assertThat(gate(relative, base, older).exitCode()).isZero();
            // A rules file that lists require_same compares exactly that.
            assertThat(gate(rules("require_same: [model]\nrules:\n"
                    + "  - {metric: request_latency, stat: avg, max_increase_pct: 500}\n"), cand, base).exitCode())
                    .isZero();
        }
    }
}
