package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.ci.InvocationPlanner;
import io.aiperf.engine.ci.ProfileSpec;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigBinder;
import io.aiperf.engine.config.ConfigInputs;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.ConfigMerger;
import io.aiperf.engine.config.DeclaredOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * An option is declared once, as a picocli field with its {@link Yaml} line: a new one shows in the help with its
 * default, binds from YAML and from its flag to the same key, and the CI step's field of its name becomes that flag,
 * with no edit anywhere else.
 */
class OptionTableTest {
    /** The file system and this process's environment, as the CLI's binding reads them. */
    private static final ConfigInputs PROCESS = ConfigInputs.ofProcess();

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Options no production code knows of, declared as any profile option is: on a field, and in a mixin. */
    static final class Knobs {
        @Topic(HelpTopic.LOAD)
        @Yaml(value = "benchmark.endpoint.new_knob", defaultValue = "7")
        @Option(names = "--new-knob", paramLabel = "KNOBS", description = "A knob no code has heard of.")
        Integer newKnob;

        @Mixin
        Dials dials = new Dials();
    }

    /** A mixin of the options class, as ProfileOptions holds MediaOptions: its topic on the class. */
    @Topic(HelpTopic.OUTPUT)
    static final class Dials {
        @Yaml("benchmark.artifacts.new_dial")
        @Option(names = "--new-dial", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
                description = "A dial no code has heard of.")
        Boolean newDial;
    }

    @Command(name = "profile", mixinStandardHelpOptions = true)
    static final class KnobCommand implements Runnable {
        @Mixin
        Knobs knobs;

        @Override
        public void run() {
        }
    }

    /** The Jenkins step's fields, as ProfileSpec would carry the new one. */
    public record Step(Integer newKnob, Boolean newDial) {
    }

    private static final OptionTable KNOBS = OptionTable.of(Knobs.class);
    private static final DeclaredOptions WITH_KNOBS = new DeclaredOptions(Stream.concat(
            DeclaredOptions.installed().rows().stream(), KNOBS.rows().stream()).toList());

    private static ObjectNode yaml(final String endpoint) throws Exception {
        return (ObjectNode) JSON.readTree("{\"benchmark\": {\"models\": [\"m\"], \"endpoint\": {" + endpoint + "}}}");
    }

    private static KnobCommand parse(final List<String> args) {
        final KnobCommand command = new KnobCommand();
        new CommandLine(command).parseArgs(args.toArray(String[]::new));
        return command;
    }

    private static BenchmarkConfig bindFlags(final Knobs knobs) throws Exception {
        final CliOverlay o = new CliOverlay();
        KNOBS.overlay(knobs, o);
        return ConfigBinder.bind(ConfigMerger.merge(yaml(""), o.tree()), o.flags(), WITH_KNOBS, PROCESS);
    }

    @Test
    void aNewOptionShowsInTheHelpWithItsDefault() {
        final CommandLine cl = new CommandLine(new KnobCommand());
        ProfileHelp.install(cl, "");
        final StringWriter text = new StringWriter();
        cl.usage(new PrintWriter(text, true));
        assertThat(text.toString()).contains("--new-knob=KNOBS", "A knob no code has heard of. Default: 7.");
        assertThat(text.toString()).as("each under its topic").containsSubsequence("\nLoad:\n", "--new-knob",
                "\nOutput:\n", "--new-dial");
        assertThat(text.toString()).doesNotContain("Other options");
    }

    @Test
    void aNewOptionBindsFromYamlWithItsKindAndDefault() throws Exception {
        assertThat(ConfigBinder.bind(yaml("\"new_knob\": 3"), Map.of(), WITH_KNOBS, PROCESS).effective()
                .at("/benchmark/endpoint/new_knob").intValue()).isEqualTo(3);
        assertThat(ConfigBinder.bind(yaml(""), Map.of(), WITH_KNOBS, PROCESS).effective()
                .at("/benchmark/endpoint/new_knob").intValue()).as("the declared default").isEqualTo(7);
        assertThatThrownBy(() -> ConfigBinder.bind(yaml("\"new_knob\": \"many\""), Map.of(), WITH_KNOBS, PROCESS))
                .isInstanceOf(ConfigException.class).hasMessageContaining("benchmark.endpoint.new_knob")
                .hasMessageContaining("Input should be a valid integer");
        final ObjectNode dial = (ObjectNode) JSON.readTree("{\"benchmark\": {\"models\": [\"m\"], "
                + "\"artifacts\": {\"new_dial\": true}}}");
        assertThat(ConfigBinder.bind(dial, Map.of(), WITH_KNOBS, PROCESS).effective().at("/benchmark/artifacts/new_dial")
                .booleanValue()).as("a mixin's row binds as well").isTrue();
        assertThatThrownBy(() -> ConfigBinder.bind(yaml("\"new_knob\": 3"), Map.of(), PROCESS))
                .as("without the row the key is unknown").isInstanceOf(ConfigException.class)
                .hasMessageContaining("Extra inputs are not permitted");
    }

    @Test
    void aNewOptionsFlagSetsTheSameKeyAndErrorsNameTheFlag() throws Exception {
        final Knobs knobs = parse(List.of("--new-knob", "5")).knobs;
        assertThat(bindFlags(knobs).effective().at("/benchmark/endpoint/new_knob").intValue()).isEqualTo(5);
        final CliOverlay o = new CliOverlay();
        KNOBS.overlay(knobs, o);
        assertThat(o.flags()).containsEntry("benchmark.endpoint.new_knob", "--new-knob");
        assertThat(bindFlags(parse(List.of()).knobs).effective().at("/benchmark/endpoint/new_knob").intValue())
                .as("an unset flag leaves the default").isEqualTo(7);
    }

    @Test
    void aCiStepFieldOfTheOptionsNameBecomesItsFlag() throws Exception {
        final List<String> argv = InvocationPlanner.options(new Step(4, false), Set.of());
        assertThat(argv).containsExactly("--new-knob", "4", "--new-dial=false");
        final JsonNode tree = bindFlags(parse(argv).knobs).effective().copy();
        assertThat(tree.at("/benchmark/endpoint/new_knob").intValue()).isEqualTo(4);
        assertThat(tree.at("/benchmark/artifacts/new_dial").isBoolean()).isTrue();
        assertThat(tree.at("/benchmark/artifacts/new_dial").booleanValue()).isFalse();
        assertThat(InvocationPlanner.options(new Step(null, null), Set.of())).as("unset, left to the config")
                .isEmpty();
    }

    /** Every option the CI step passes is the profile option whose field has the step field's name. */
    @Test
    void theCiStepsOptionsAreProfileOptionsOfTheSameName() {
        final ProfileSpec spec = ProfileSpec.fromForm(Map.ofEntries(Map.entry("model", "m"),
                Map.entry("urls", "http://127.0.0.1:1"), Map.entry("artifactDir", "out"),
                Map.entry("endpointType", "chat"), Map.entry("streaming", "true"), Map.entry("concurrency", "4"),
                Map.entry("requestRate", "2.5"), Map.entry("requestCount", "100"),
                Map.entry("benchmarkDuration", "30"), Map.entry("warmupRequestCount", "5"),
                Map.entry("numProfileRuns", "2"), Map.entry("resetKvCache", "false"),
                Map.entry("serverProfiler", "true")));
        final List<String> planned = InvocationPlanner.plan(spec, List.of(), List.of()).argv();
        final List<String> args = new ArrayList<>(planned);
        args.removeAll(List.of("--model", "m", "--url", "http://127.0.0.1:1", "--artifact-dir",
                spec.folders().exportDir("out")));
        final List<String> flags = new ArrayList<>();
        for (final OptionSpec o : Main.commandLine().parseArgs(args.toArray(String[]::new)).subcommand()
                .matchedOptions()) {
            final String field = ((Field) o.userObject()).getName();
            assertThat(o.names()).as(field).contains(InvocationPlanner.flag(field));
            flags.add(InvocationPlanner.flag(field));
        }
        assertThat(flags).containsExactly("--endpoint-type", "--streaming", "--concurrency", "--request-rate",
                "--request-count", "--benchmark-duration", "--warmup-request-count", "--num-profile-runs",
                "--reset-kv-cache", "--server-profiler");
    }

    static final class SweepsANumberField {
        @Yaml(value = "benchmark.phases.profiling.n", sweeps = true, kind = DeclaredOptions.Kind.INTEGER)
        @Option(names = "--n")
        Integer n;
    }

    static final class SweepsWithoutAKind {
        @Yaml(value = "benchmark.phases.profiling.n", sweeps = true)
        @Option(names = "--n")
        String n;
    }

    static final class SweepsOutsideTheBenchmark {
        @Yaml(value = "multi_run.n", sweeps = true, kind = DeclaredOptions.Kind.INTEGER)
        @Option(names = "--n")
        String n;
    }

    static final class KindWithoutSweeping {
        @Yaml(value = "benchmark.phases.profiling.n", kind = DeclaredOptions.Kind.INTEGER)
        @Option(names = "--n")
        String n;
    }

    /** A sweeping row is a text field (the comma list) of a benchmark key with the kind of its values; no other. */
    @Test
    void aSweepingRowIsDeclaredWholeOrNotAtAll() {
        for (final Class<?> bad : List.of(SweepsANumberField.class, SweepsWithoutAKind.class,
                SweepsOutsideTheBenchmark.class, KindWithoutSweeping.class)) {
            assertThatThrownBy(() -> OptionTable.of(bad)).as(bad.getSimpleName())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining(bad.getSimpleName());
        }
        assertThat(OptionTable.PROFILE.rows()).filteredOn(DeclaredOptions.Row::sweeps)
                .extracting(DeclaredOptions.Row::flag)
                .as("the comma-list flags of a phase; --isl and --osl sweep a distribution's mean by hand")
                .containsExactly("--concurrency", "--request-rate", "--request-count", "--benchmark-duration");
    }

    /** The rows handed to the binder are the profile options' @Yaml lines, each key once with one default. */
    @Test
    void theBinderSeesProfilesTable() {
        assertThat(DeclaredOptions.installed().rows()).isEqualTo(OptionTable.PROFILE.rows());
        assertThat(DeclaredOptions.installed().rows()).anySatisfy(r -> {
            assertThat(r.path()).isEqualTo("benchmark.endpoint.timeout");
            assertThat(r.flag()).isEqualTo("--request-timeout-seconds");
            assertThat(r.kind()).isEqualTo(DeclaredOptions.Kind.SECONDS);
            assertThat(r.defaultValue()).isEqualTo("21600");
        });
    }

    /** Every flag the CI step writes by hand (its own settings) is an option of the command it runs. */
    @Test
    void theCiStepsHandWrittenFlagsAreOptionsOfTheCommand() {
        final Map<String, String> form = Map.of("model", "m", "urls", "http://127.0.0.1:1", "artifactDir", "out",
                "config", "bench.yaml", "credentialsId", "key", "gate", "rules.yaml", "cells", "c1");
        final Map<String, String> compare = new java.util.HashMap<>(form);
        compare.remove("cells"); // a comparison runs its own cells
        compare.put("compareWith", "http://127.0.0.1:2");
        for (final Map<String, String> f : List.of(form, compare)) {
            final List<String> argv = InvocationPlanner.plan(ProfileSpec.fromForm(f), List.of(),
                    List.of("artifacts/base"), "#7").argv();
            final CommandLine.ParseResult parsed = Main.commandLine().parseArgs(argv.toArray(String[]::new));
            assertThat(parsed.subcommand().unmatched()).as(String.join(" ", argv)).isEmpty();
            assertThat(parsed.subcommand().matchedOptions()).as(String.join(" ", argv)).hasSizeGreaterThan(4);
        }
    }

    /** A config file's search: section is read through the same rows: its keys, kinds and precedence. */
    @Test
    void theSearchSectionTakesTheTablesKeys() throws Exception {
        final SearchOptions given = CommandLine.populateCommand(new SearchOptions(), "--concurrency-max", "16");
        given.defaults(JSON.readTree("{\"concurrency_min\": 2, \"concurrency_max\": 32, \"slas\": "
                + "\"time_to_first_token:p95:lt:200\"}"));
        assertThat(given.concurrencyMin).isEqualTo(2);
        assertThat(given.concurrencyMax).as("the flag wins").isEqualTo(16);
        assertThat(given.slas).containsExactly("time_to_first_token:p95:lt:200");
        assertThatThrownBy(() -> new SearchOptions().defaults(JSON.readTree("{\"trial_max\": 2}")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("search.trial_max")
                .hasMessageContaining("did you mean 'trials_max'");
        assertThatThrownBy(() -> new SearchOptions().defaults(JSON.readTree("{\"max_iterations\": 2.5}")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("search.max_iterations")
                .hasMessageContaining("expected a whole number");
        assertThatThrownBy(() -> new SearchOptions().defaults(JSON.readTree("{\"ttft_sla_ms\": \"fast\"}")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("search.ttft_sla_ms")
                .hasMessageContaining("expected a number");
    }
}
