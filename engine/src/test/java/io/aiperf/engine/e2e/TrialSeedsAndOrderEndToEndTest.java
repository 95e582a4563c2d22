package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream's trial and sweep seed and order options against the real mock (src-docs/trials.md, "Seeds and order"). */
class TrialSeedsAndOrderEndToEndTest {
    @TempDir
    Path tmp;

    private Runs.Result sweep(final MockServer mock, final Path dir, final String... extra) {
        final java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("profile", "-m", "m", "-u",
                mock.url(), "--isl", "8", "--osl", "2", "--request-count", "2", "--concurrency", "1,2",
                "--num-profile-runs", "2", "--random-seed", "7", "--tokenizer", "builtin", "--artifact-dir",
                dir.toString()));
        args.addAll(java.util.List.of(extra));
        return Runs.aiperf(args.toArray(new String[0]));
    }

    private static String inputs(final Path dir, final int trial, final int concurrency) throws Exception {
        return Files.readString(dir.resolve("profile_runs/trial_000" + trial + "/concurrency_" + concurrency
                + "/inputs.json"));
    }

    private static Instant start(final Path dir, final int trial, final int concurrency) throws Exception {
        return Instant.parse(Runs.json(dir.resolve("profile_runs/trial_000" + trial + "/concurrency_" + concurrency
                + "/profile_export_aiperf.json")).path("start_time").asText());
    }

    @Test
    void seedsAndOrderFollowTheOptions() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path plain = tmp.resolve("plain");
            assertThat(sweep(mock, plain).exitCode()).isZero();
            // defaults: trials share the point's seed, points differ (seed + i), repeated order
            assertThat(inputs(plain, 1, 1)).isEqualTo(inputs(plain, 2, 1));
            assertThat(inputs(plain, 1, 1)).isNotEqualTo(inputs(plain, 1, 2));
            assertThat(start(plain, 1, 2)).isBefore(start(plain, 2, 1));

            final Path varied = tmp.resolve("varied");
            final Runs.Result r = sweep(mock, varied, "--vary-seed-per-trial", "--parameter-sweep-mode",
                    "independent", "--parameter-sweep-cooldown-seconds", "0.05");
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(inputs(varied, 1, 1)).isNotEqualTo(inputs(varied, 2, 1));
            assertThat(inputs(varied, 2, 1)).isNotEqualTo(inputs(varied, 2, 2));
            // independent: both trials of concurrency 1 before concurrency 2, after the 50 ms pause
            assertThat(start(varied, 2, 1)).isBefore(start(varied, 1, 2));
            // independent: upstream keeps each point's aggregate under the point, the sweep's at the top
            assertThat(Runs.json(varied.resolve("concurrency_1/aggregate/profile_export_aiperf_aggregate.json"))
                    .path("metadata").path("sweep_mode").asText()).isEqualTo("independent");
            assertThat(Runs.json(varied.resolve("sweep_aggregate/profile_export_aiperf_sweep.json"))
                    .path("metadata").path("sweep_mode").asText()).isEqualTo("independent");

            final Path same = tmp.resolve("same");
            assertThat(sweep(mock, same, "--parameter-sweep-same-seed").exitCode()).isZero();
            // every point on the seed itself: the points draw the same prompts
            assertThat(inputs(same, 1, 1)).isEqualTo(inputs(same, 1, 2));
        }
    }

    @Test
    void theSameSeedNeedsASeedAndTheModeIsChecked() {
        final Runs.Result noSeed = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9",
                "--parameter-sweep-same-seed");
        assertThat(noSeed.exitCode()).isEqualTo(2);
        assertThat(noSeed.err().strip()).contains("--parameter-sweep-same-seed").contains("--random-seed");
        final Runs.Result mode = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9",
                "--parameter-sweep-mode", "sideways");
        assertThat(mode.exitCode()).isEqualTo(2);
        assertThat(mode.err().strip()).contains("--parameter-sweep-mode").contains("repeated or independent")
                .doesNotContain("\n");
    }
}
