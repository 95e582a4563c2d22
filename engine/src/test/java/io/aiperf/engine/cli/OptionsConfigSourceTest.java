package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.search.SearchSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A profile reads its YAML file once: the model's discovery and a search's points bind the tree read first. */
class OptionsConfigSourceTest {
    private static final String YAML = """
            benchmark:
              model: m
              endpoint: {urls: ["http://127.0.0.1:9"]}
              phases: [{name: profiling, requests: 20}]
            """;

    @TempDir
    Path tmp;

    @Test
    void aSearchPointBindsTheFileAsReadAtTheFirstLoad() throws Exception {
        final Path yaml = Files.writeString(tmp.resolve("bench.yaml"), YAML);
        final String[] args = {"-f", yaml.toString(), "--search-space", "concurrency:1,8", "--search-sla",
                "time_to_first_token:p50:lt:100"};
        final OptionsConfigSource configs = new OptionsConfigSource(parse(args).options);
        final SearchSpec search = parse(args).searchOptions.spec(null);

        final BenchmarkConfig first = configs.load();
        Files.delete(yaml); // from here on only the tree read above can be bound
        final BenchmarkConfig point = configs.at(search, 4);

        assertThat(point.firstProfilingPhase().concurrency()).isEqualTo(4);
        assertThat(configs.load().effectiveTree()).isEqualTo(first.effectiveTree());
        // the same config as the file and --concurrency 4 read afresh
        Files.writeString(yaml, YAML);
        final ProfileCommand fresh = parse(args);
        fresh.options.concurrency = "4";
        final BenchmarkConfig reread = ConfigLoader.load(yaml, fresh.options.overlay(), System.getenv());
        assertThat(point.effectiveTree().toString()).isEqualTo(reread.effectiveTree().toString());
        assertThat(point.givenTree().toString()).isEqualTo(reread.givenTree().toString());
        assertThat(point.phases()).isEqualTo(reread.phases());
    }

    private static ProfileCommand parse(final String... args) {
        final ProfileCommand command = new ProfileCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }
}
