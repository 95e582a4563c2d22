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
        final OptionsConfigSource configs = source(parse(args));
        final SearchSpec search = parse(args).searchOptions.spec(null);

        final BenchmarkConfig first = configs.load();
        Files.delete(yaml); // from here on only the tree read above can be bound
        final BenchmarkConfig point = configs.at(search, 4);

        assertThat(point.firstProfilingPhase().concurrency()).isEqualTo(4);
        assertThat(configs.load().effective()).isEqualTo(first.effective());
        // the same config as the file and --concurrency 4 read afresh
        Files.writeString(yaml, YAML);
        final ProfileCommand fresh = parse(args);
        fresh.options.concurrency = "4";
        final BenchmarkConfig reread = ConfigLoader.load(yaml, fresh.options.overlay(), System.getenv());
        assertThat(point.effective().copy().toString()).isEqualTo(reread.effective().copy().toString());
        assertThat(point.given().copy().toString()).isEqualTo(reread.given().copy().toString());
        assertThat(point.phases()).isEqualTo(reread.phases());
    }

    /**
     * A point varied by value is the config the options would give with the knob's value typed: for a concurrency
     * with other profiling flags around it, for a rate (whose arrival is Poisson), for a rate with its ramp (once
     * refused: the run's own config had no rate to ramp), and with a goodput recipe.
     */
    @Test
    void aPointVariedByValueIsThePointParsedAfresh() throws Exception {
        final Path yaml = Files.writeString(tmp.resolve("bench.yaml"), YAML);
        assertSamePoint(4, "-f", yaml.toString(), "--request-count", "30", "--warmup-request-count", "5",
                "--search-space", "concurrency:1,8", "--search-sla", "time_to_first_token:p50:lt:100");
        assertSamePoint(6, "-f", yaml.toString(), "--concurrency", "3", "--search-space", "request_rate:2,10",
                "--search-sla", "time_to_first_token:p50:lt:100");
        assertSamePoint(15, "-m", "m", "-u", "http://127.0.0.1:9", "--request-rate-ramp-duration", "2",
                "--search-space", "request_rate:10,20", "--search-sla", "time_to_first_token:p50:lt:100");
        assertSamePoint(2, "-m", "m", "-u", "http://127.0.0.1:9", "--request-count", "12", "--search-recipe",
                "max-goodput-under-slo", "--search-space", "concurrency:1,4", "--e2e-sla-ms", "250");
    }

    /** The model found and the mock are set by value too: the options are turned into a tree once. */
    @Test
    void theModelAndTheMockAreSetByValue() {
        final OptionsConfigSource configs = source(parse("--request-count", "5"));
        assertThat(configs.namesModel()).isFalse();
        configs.useModel("model-to-be-asked"); // as the model's discovery does, before it asks the server
        configs.load();
        configs.useModel("found");
        final BenchmarkConfig found = configs.load();
        assertThat(found.models()).containsExactly("found");
        assertThat(found.effective().copy().toString()).isEqualTo(ConfigLoader.load(null,
                parse("--request-count", "5", "-m", "found").options.overlay(), System.getenv()).effective()
                .copy().toString());
        assertThat(configs.parses()).isEqualTo(1);
        final OptionsConfigSource mocked = source(parse("--request-count", "5"));
        mocked.useMock("http://127.0.0.1:1234");
        assertThat(mocked.namesModel()).isTrue();
        final BenchmarkConfig config = mocked.load();
        assertThat(config.models()).containsExactly("mock-model");
        assertThat(config.endpoint().urls()).containsExactly("http://127.0.0.1:1234");
        assertThat(config.tokenizer().name()).isEqualTo("builtin");
        final ProfileCommand typed = parse("--request-count", "5", "-m", "mock-model", "-u",
                "http://127.0.0.1:1234", "--tokenizer", "builtin");
        assertThat(config.effective().copy().toString()).isEqualTo(ConfigLoader.load(null, typed.options.overlay(),
                System.getenv()).effective().copy().toString());
        assertThat(mocked.parses()).isEqualTo(1);
    }

    private static void assertSamePoint(final int value, final String... args) {
        final ProfileCommand command = parse(args);
        final OptionsConfigSource configs = source(command);
        final SearchSpec search = command.searchOptions.spec(null);
        configs.load();
        final BenchmarkConfig base = configs.load();
        final BenchmarkConfig point = configs.at(search, value);
        configs.at(search, search.min());
        configs.at(search, search.max());
        assertThat(configs.parses()).isEqualTo(1);

        final ProfileCommand fresh = parse(args);
        if (search.knob().equals(SearchSpec.REQUEST_RATE)) {
            fresh.options.requestRate = Integer.toString(value);
        } else {
            fresh.options.concurrency = Integer.toString(value);
        }
        if (!search.goodput().isEmpty()) {
            fresh.options.goodput = search.goodput();
        }
        final BenchmarkConfig reread = ConfigLoader.load(fresh.options.config, fresh.options.overlay(),
                System.getenv());
        assertThat(point.effective().copy().toString()).isEqualTo(reread.effective().copy().toString());
        assertThat(point.given().copy().toString()).isEqualTo(reread.given().copy().toString());
        assertThat(point.phases()).isEqualTo(reread.phases());
        assertThat(point.goodputSlos()).isEqualTo(reread.goodputSlos());
        // the run's own config, its knob's keys reserved for the points, is the one the options give; a rate
        // search's, at its low end (the options give no rate)
        final ProfileCommand asGiven = parse(args);
        if (search.knob().equals(SearchSpec.REQUEST_RATE)) {
            asGiven.options.requestRate = Integer.toString(search.min());
        }
        assertThat(base.effective().copy().toString()).isEqualTo(ConfigLoader.load(asGiven.options.config,
                asGiven.options.overlay(), System.getenv()).effective().copy().toString());
    }

    /** The source {@code aiperf profile} builds: the file as the command read it. */
    private static OptionsConfigSource source(final ProfileCommand command) {
        return new OptionsConfigSource(command.options, command.request().search(), command.loadedFile);
    }

    /** The YAML file is read once: by the command, which hands it to the config source. */
    @Test
    void theFileIsReadOnceByTheCommand() throws Exception {
        final Path yaml = Files.writeString(tmp.resolve("once.yaml"), YAML);
        final ProfileCommand command = parse("-f", yaml.toString());
        command.request();
        Files.delete(yaml); // from here on only the tree the command read can be bound
        final OptionsConfigSource configs = new OptionsConfigSource(command.options, null, command.loadedFile);
        final BenchmarkConfig config = configs.load();
        assertThat(config.models()).containsExactly("m");
        assertThat(config.firstProfilingPhase().requests()).isEqualTo(20);
        Files.writeString(yaml, YAML);
        assertThat(config.effective()).isEqualTo(ConfigLoader.load(yaml, parse("-f", yaml.toString())
                .options.overlay(), System.getenv()).effective());
    }

    private static ProfileCommand parse(final String... args) {
        final ProfileCommand command = new ProfileCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }
}
