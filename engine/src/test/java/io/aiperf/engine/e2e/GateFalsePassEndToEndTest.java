package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate never passes what it cannot vouch for: a candidate whose own run failed or was cancelled, and a
 * baseline that is no run (a typo, {@code {}}, another export file, a failed run, an infinite value).
 */
class GateFalsePassEndToEndTest {
    @TempDir
    Path tmp;

    private Path run(final MockServerConfig config, final String name, final String... extra) throws Exception {
        try (MockServer mock = MockServer.start(config)) {
            final Path dir = tmp.resolve(name);
            final java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("profile", "-m", "m",
                    "-u", mock.url(), "--concurrency", "2", "--request-count", "40", "--isl", "8", "--osl", "2",
                    "--artifact-dir", dir.toString()));
            args.addAll(java.util.List.of(extra));
            Runs.aiperf(args.toArray(new String[0]));
            return dir;
        }
    }

    private Path rules(final String yaml) throws Exception {
        final Path rules = tmp.resolve("rules-" + Math.abs(yaml.hashCode()) + ".yaml");
        Files.writeString(rules, yaml);
        return rules;
    }

    private Runs.Result gate(final Path rules, final Path baseline, final Path candidate) {
        return baseline == null
                ? Runs.aiperf("gate", "--rules", rules.toString(), "--candidate", candidate.toString(),
                "--output-dir", tmp.resolve("gate").toString())
                : Runs.aiperf("gate", "--rules", rules.toString(), "--baseline", baseline.toString(),
                "--candidate", candidate.toString(), "--output-dir", tmp.resolve("gate").toString());
    }

    @Test
    void aCandidateAboveItsErrorLimitOrCancelledFailsTheGate() throws Exception {
        final Path absolute = rules("rules:\n  - {metric: request_latency, stat: avg, max: 100000}\n");
        final Path erring = run(MockServerConfig.fast().withErrorRate(30), "erring", "--max-error-rate", "5");
        assertThat(Runs.json(erring.resolve("cell_outcome.json")).path("status").asText()).isEqualTo("failed");
        final Runs.Result failed = gate(absolute, null, erring);
        assertThat(failed.exitCode()).as(failed.all()).isEqualTo(1);
        assertThat(failed.out()).contains("the candidate cell did not complete (its run failed: error rate");

        final Path good = run(MockServerConfig.fast(), "good");
        assertThat(gate(absolute, null, good).exitCode()).isZero();
        // a run cut short by a signal: its numbers come from part of the requests
        final Path outcome = good.resolve("cell_outcome.json");
        Files.writeString(outcome, Files.readString(outcome).replace("\"completed\"", "\"cancelled\""));
        final Runs.Result cancelled = gate(absolute, null, good);
        assertThat(cancelled.exitCode()).isEqualTo(1);
        assertThat(cancelled.out()).contains("its run cancelled");
    }

    @Test
    void aBaselineThatIsNoUsableRunNeverPassesSilently() throws Exception {
        final Path relative = rules("rules:\n  - {metric: request_latency, stat: avg, max_increase_pct: 10}\n");
        final Path good = run(MockServerConfig.fast(), "good");
        assertThat(gate(relative, good, good).exitCode()).isZero();

        final Runs.Result typo = gate(relative, tmp.resolve("goood"), good);
        assertThat(typo.exitCode()).isEqualTo(2);
        assertThat(typo.err()).contains("goood").contains("no such run directory");
        final Path empty = tmp.resolve("empty.json");
        Files.writeString(empty, "{}");
        for (final Path notARun : new Path[] {empty, good.resolve("inputs.json"), good.resolve("cell_outcome.json")}) {
            final Runs.Result r = gate(relative, notARun, good);
            assertThat(r.exitCode()).as(notARun.toString()).isEqualTo(2);
            assertThat(r.err()).contains("not a run summary");
        }

        final Path dead = run(MockServerConfig.fast().withErrorRate(100), "dead");
        final Runs.Result failedBaseline = gate(relative, dead, good);
        assertThat(failedBaseline.exitCode()).as(failedBaseline.all()).isEqualTo(4);
        assertThat(failedBaseline.out()).contains("the baseline cell did not complete");

        final Path infinite = tmp.resolve("infinite");
        Files.createDirectories(infinite);
        final String summary = Files.readString(good.resolve("profile_export_aiperf.json"));
        Files.writeString(infinite.resolve("profile_export_aiperf.json"),
                summary.replaceAll("(\"request_latency\"\\s*:\\s*\\{[^}]*?\"avg\"\\s*:\\s*)[-0-9.eE]+", "$11e999"));
        assertThat(Files.readString(infinite.resolve("profile_export_aiperf.json"))).contains("1e999");
        final Runs.Result inf = gate(relative, infinite, good);
        assertThat(inf.exitCode()).as(inf.all()).isEqualTo(4);
        assertThat(inf.out()).contains("is not a finite number");
    }
}
