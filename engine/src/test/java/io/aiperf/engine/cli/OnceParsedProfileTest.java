package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.profile.ProfilePlan;
import io.aiperf.engine.profile.ProfileRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A whole profile turns its options into a config tree once: a sweep's cells, a capacity search's points (and the
 * checks of its range), the embedded mock and the model are varied by value from that one parse, run against the
 * embedded mock as {@code aiperf profile} runs them.
 */
class OnceParsedProfileTest {
    @TempDir
    Path tmp;

    @Test
    void aSweepParsesItsOptionsOnce() throws Exception {
        final Path dir = tmp.resolve("sweep");
        final OptionsConfigSource configs = run("--mock", "--streaming", "--isl", "20", "--osl", "8",
                "--concurrency", "1,2", "--request-count", "4",
                "--num-profile-runs", "2", "--artifact-dir", dir.toString());
        // both points ran, twice each (trials in rounds: upstream keeps the sweep aggregate under aggregate/)
        assertThat(dir.resolve("aggregate/sweep_aggregate")).isDirectory();
        assertThat(configs.parses()).isEqualTo(1);
    }

    @Test
    void aCapacitySearchParsesItsOptionsOnce() throws Exception {
        final Path dir = tmp.resolve("search");
        final OptionsConfigSource configs = run("--mock", "--streaming", "--isl", "20", "--osl", "8",
                "--request-count", "4", "--search-space",
                "concurrency:1,3", "--search-sla", "time_to_first_token:p50:lt:1000000", "--search-trials-max", "1",
                "--artifact-dir", dir.toString());
        // the points probed, whatever they decided on a loaded machine
        assertThat(Files.readString(dir.resolve("search_result.json"))).contains("\"points\"");
        assertThat(dir.resolve("search/concurrency_0001")).isDirectory();
        assertThat(configs.parses()).isEqualTo(1);
    }

    private static OptionsConfigSource run(final String... args) throws Exception {
        final ProfileCommand command = new ProfileCommand();
        new CommandLine(command).parseArgs(args);
        final ProfileRequest request = command.request();
        final OptionsConfigSource configs = new OptionsConfigSource(command.options, request.search(),
                command.loadedFile);
        assertThat(new ProfilePlan(request, configs).run()).isZero();
        return configs;
    }
}
