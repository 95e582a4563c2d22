package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.config.DeclaredOptions;
import io.aiperf.engine.config.DeclaredOptions.Kind;
import io.aiperf.engine.config.Variation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * A sweepable phase option is one row: a field declared only here, as a field of {@code ProfileOptions} would be,
 * with {@code sweeps = true}. Added to {@code aiperf}'s own command line, it shows in {@code profile --help} under its
 * topic with its default, binds from YAML (a value, and a sweep's list by its key alone), {@code config expand}
 * prints it, and {@code --new-throttle 1,2} against the embedded mock runs two cells whose exports carry the two
 * values in {@code input_config}. No production file names it.
 */
class SweepableOptionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String FLAG = "--new-throttle";
    private static final String KEY = "new_throttle";

    /** The row, and nothing else: its use here is the effective config, read back from the tree. */
    static final class Throttle {
        @Topic(HelpTopic.LOAD)
        @Yaml(value = "benchmark.phases.profiling.new_throttle", defaultValue = "3", sweeps = true,
                kind = Kind.INTEGER)
        @Option(names = FLAG, paramLabel = "N", description = "A phase throttle no code has heard of.")
        String newThrottle;
    }

    @TempDir
    Path tmp;

    /** {@code aiperf} as Main builds it, with the throttle added to {@code command}'s profile options. */
    private static CommandLine aiperf(final String... command) {
        final CommandLine aiperf = Main.commandLine();
        CommandLine target = aiperf;
        for (final String name : command) {
            target = target.getSubcommands().get(name);
        }
        final Object options = target.getCommand();
        (options instanceof ProfileCommand p ? p.options : ((ConfigCommand.Expand) options).options)
                .add(target, new Throttle());
        return aiperf;
    }

    private record Result(int exitCode, String out, String err) {
    }

    /** Runs {@code args}, the command line built once the console is captured (picocli's handlers keep it). */
    private static Result run(final java.util.function.Supplier<CommandLine> aiperf, final String... args) {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            final int code = aiperf.get().execute(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    private static DeclaredOptions table() {
        return DeclaredOptions.installed().with(OptionTable.of(Throttle.class).rows());
    }

    private static JsonNode profiling(final JsonNode phases) {
        for (final JsonNode p : phases) {
            if (p.path("name").asText().equals("profiling")) {
                return p;
            }
        }
        throw new AssertionError("no profiling phase in " + phases);
    }

    @Test
    void itShowsInTheHelpUnderItsTopicWithItsDefaultAndThatItSweeps() {
        final Result r = run(() -> aiperf("profile"), "profile", "--help");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).as(r.err()).isNotEmpty();
        assertThat(r.out()).containsSubsequence("\nLoad:\n", "--new-throttle=N", "\nWarmup:\n");
        assertThat(r.out().replaceAll("\\s+", " "))
                .contains("A phase throttle no code has heard of. A comma list sweeps. Default: 3.");
        assertThat(run(Main::commandLine, "profile", "--help").out()).as("only where it was added")
                .doesNotContain(FLAG);
    }

    @Test
    void itBindsFromYamlAsAValueAndAsASweepsListByItsKeyAlone() {
        final String body = """
                benchmark:
                  model: m
                  endpoint: {urls: ["http://127.0.0.1:9"]}
                  phases: [{name: profiling, concurrency: 1, requests: 4%s}]
                """;
        final BenchmarkConfig given = ConfigLoader.fromYaml(body.formatted(", new_throttle: 5"),
                new CliOverlay(table()));
        assertThat(profiling(given.effective().at("/benchmark/phases")).path(KEY).intValue()).isEqualTo(5);
        final BenchmarkConfig defaulted = ConfigLoader.fromYaml(body.formatted(""), new CliOverlay(table()));
        assertThat(profiling(defaulted.effective().at("/benchmark/phases")).path(KEY).intValue())
                .as("the row's default").isEqualTo(3);
        final List<Variation> swept = ConfigLoader.fromYaml("sweep: {parameters: {new_throttle: [4, 6]}}\n"
                + body.formatted(""), new CliOverlay(table())).variations();
        assertThat(swept).extracting(Variation::label).containsExactly("new_throttle_4", "new_throttle_6");
        assertThat(swept).extracting(v -> profiling(v.config().effective().at("/benchmark/phases")).path(KEY)
                .intValue()).containsExactly(4, 6);
        assertThatThrownBy(() -> ConfigLoader.fromYaml(body.formatted(", new_throttle: many"),
                new CliOverlay(table()))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("benchmark.phases.profiling.new_throttle");
        assertThatThrownBy(() -> ConfigLoader.fromYaml(body.formatted(", new_throttle: 5"), new CliOverlay()))
                .as("without the row the key is unknown").isInstanceOf(ConfigException.class)
                .hasMessageContaining("new_throttle");
    }

    @Test
    void configExpandPrintsItAndItsSweep() throws Exception {
        final Result one = run(() -> aiperf("config", "expand"), "config", "expand", "-m", "m", FLAG, "5");
        assertThat(one.exitCode()).as(one.err()).isZero();
        assertThat(profiling(YAML.readTree(one.out()).at("/benchmark/phases")).path(KEY).intValue()).isEqualTo(5);
        final Result unset = run(() -> aiperf("config", "expand"), "config", "expand", "-m", "m");
        assertThat(profiling(YAML.readTree(unset.out()).at("/benchmark/phases")).path(KEY).intValue())
                .as("the default, filled in").isEqualTo(3);
        final Result sweep = run(() -> aiperf("config", "expand"), "config", "expand", "-m", "m", FLAG, "1,2");
        assertThat(sweep.exitCode()).as(sweep.err()).isZero();
        assertThat(YAML.readTree(sweep.out()).at("/sweep/parameters/" + KEY)).hasSize(2);
        final Result cells = run(() -> aiperf("config", "expand"), "config", "expand", "-m", "m", FLAG, "1,2",
                "--cells");
        assertThat(cells.out().lines()).containsExactly("new_throttle_1", "new_throttle_2");
        final Result bad = run(() -> aiperf("config", "expand"), "config", "expand", "-m", "m", FLAG, "1,x");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("--new-throttle: Input should be a valid integer, got 'x'");
    }

    @Test
    void aCommaListRunsOneCellPerValueAndTheExportsCarryIt() throws Exception {
        final Path dir = tmp.resolve("run");
        final Result r = run(() -> aiperf("profile"), "profile", "--mock", "--isl", "8", "--osl", "2",
                "--request-count", "2", FLAG, "1,2", "--artifact-dir", dir.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        for (final int value : List.of(1, 2)) {
            final JsonNode export = JSON.readTree(dir.resolve("new_throttle_" + value)
                    .resolve("profile_export_aiperf.json").toFile());
            assertThat(profiling(export.at("/input_config/phases")).path(KEY).intValue()).isEqualTo(value);
        }
    }

    @Test
    void noProductionFileNamesIt() throws Exception {
        try (Stream<Path> files = Files.walk(Path.of("src/main"))) {
            final List<Path> naming = files.filter(Files::isRegularFile).filter(f -> {
                try {
                    final String text = Files.readString(f);
                    return text.contains(KEY) || text.contains(FLAG) || text.contains("newThrottle");
                } catch (java.io.IOException | java.io.UncheckedIOException binary) {
                    return false;
                }
            }).toList();
            assertThat(naming).isEmpty();
        }
        assertThat(Path.of("src/main/java/io/aiperf/engine/cli/ProfileOptions.java")).exists();
    }
}
