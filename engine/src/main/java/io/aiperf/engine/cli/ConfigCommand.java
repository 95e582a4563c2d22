package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.redact.Redactor;
import io.aiperf.engine.sweep.CellPlan;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code aiperf config init|validate|expand}: write a starter YAML file, check one, or print the config it yields. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Write, validate or expand an AIPerf YAML "
        + "config.",
        footerHeading = "%nExamples:%n", footer = {
                "  aiperf config init --template goodput_slo --model my-model -o bench.yaml",
                "  aiperf config validate -f bench.yaml",
                "  aiperf config expand -f bench.yaml --format json"},
        subcommands = {ConfigInitCommand.class, ConfigCommand.Validate.class, ConfigCommand.Expand.class})
public final class ConfigCommand implements Runnable {
    /** This command in the tree it runs in, so its usage reads "aiperf config", not "config". */
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    abstract static class FileCommand implements Callable<Integer> {
        @Option(names = {"-f", "--config", "--config-file"}, paramLabel = "FILE", description = "The YAML file.")
        Path file;

        @picocli.CommandLine.Parameters(arity = "0..1", paramLabel = "CONFIG", description = "The YAML file, as "
                + "upstream writes it (aiperf config validate bench.yaml); the same as -f.")
        Path positional;

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        /** The file named by -f or as the argument (one of them, not both). */
        Path file() {
            if ((file == null) == (positional == null)) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), file == null
                        ? "Missing the config file: give it as the argument or with -f" : "Give the config file once: "
                        + "as the argument or with -f, not both");
            }
            return file != null ? file : positional;
        }

        BenchmarkConfig load() {
            return ConfigLoader.load(file(), new CliOverlay(), System.getenv());
        }
    }

    @Command(name = "validate", mixinStandardHelpOptions = true, description = "Check a config; exit 1 with the field "
            + "named when it is invalid, as upstream's config validate does (profile exits 2 for the same config). "
            + "Needs no network: the tokenizer is looked for in files and the cache only, unless --check-tokenizer.")
    static final class Validate extends FileCommand {
        @Option(names = "--check-tokenizer", description = "Also load the tokenizer as profile does, downloading it "
                + "from the Hugging Face hub when it is not cached (a name that cannot be had is then invalid).")
        boolean checkTokenizer;

        /** The tokenizer as profile loads it, hub included: a named one that cannot be loaded is invalid here too. */
        private static String checkedTokenizer(final BenchmarkConfig c) {
            final io.aiperf.engine.dataset.TokenizerResolver.Resolved t = io.aiperf.engine.dataset.TokenizerResolver
                    .resolve(c.tokenizer(), c.primaryModel(), System.getenv(),
                            new io.aiperf.engine.hub.HfHub(c.endpoint().network()));
            io.aiperf.engine.dataset.ChatTemplateCounter.of(c.tokenizer(), t.tokenizer()); // --apply-chat-template
            if (t.warning() != null) {
                System.err.println("warning: " + t.warning());
            }
            return t.tokenizer().name() + " (" + t.tokenizer().source() + ")";
        }

        /**
         * The tokenizer from files and the cache. A hub id found nowhere here is left to the run, which may download
         * it; any other name (a path, a served name) is judged now, as it can be had from nowhere else.
         */
        private static String localTokenizer(final BenchmarkConfig c) {
            final String name = c.tokenizer().explicit() ? c.tokenizer().name() : c.primaryModel();
            final boolean downloadable = name != null && io.aiperf.engine.dataset.TokenizerResolver.isRepoId(name);
            final String later = name + " (not cached here: loaded at run time; --check-tokenizer loads it now)";
            if (downloadable && !io.aiperf.engine.dataset.TokenizerResolver.isHere(c.tokenizer(), c.primaryModel(),
                    System.getenv())) {
                return later;
            }
            // Here, or never to be had elsewhere: loaded now, so a broken file is invalid as profile finds it.
            final io.aiperf.engine.dataset.TokenizerResolver.Resolved t = io.aiperf.engine.dataset.TokenizerResolver
                    .resolve(c.tokenizer(), c.primaryModel(), System.getenv());
            if (t.warning() != null) {
                System.err.println("warning: " + t.warning());
            }
            io.aiperf.engine.dataset.ChatTemplateCounter.of(c.tokenizer(), t.tokenizer()); // --apply-chat-template
            return t.tokenizer().name() + " (" + t.tokenizer().source() + ")";
        }

        @Override
        public Integer call() {
            try {
                final BenchmarkConfig c = load();
                // The search section as profile reads it: a key profile refuses is invalid here too.
                final SearchOptions search = new SearchOptions();
                search.defaults(io.aiperf.engine.config.YamlLoader.load(file(), System.getenv()).get("search"));
                search.spec(null);
                c.warnings().forEach(w -> System.err.println("warning: " + w));
                final String tokenizer = checkTokenizer ? checkedTokenizer(c) : localTokenizer(c);
                final int cells = CellPlan.of(c).size();
                System.out.println(file() + ": valid (" + cells + (cells == 1 ? " cell, " : " cells, ")
                        + c.phases().size() + " phase(s)" + (cells == 1 ? "" : " each") + ", model " + c.primaryModel()
                        + ", tokenizer " + tokenizer + ")");
                return ExitCode.OK;
            } catch (ConfigException e) {
                System.err.println("error: invalid configuration: " + e.getMessage());
                return ExitCode.FAILED; // upstream's documented exit code for an invalid file
            }
        }
    }

    @Command(name = "expand", mixinStandardHelpOptions = true, description = "Print the effective config with every default filled in (secrets redacted).")
    static final class Expand extends FileCommand {
        @Option(names = "--format", defaultValue = "yaml", paramLabel = "FORMAT", description = "yaml or json. Default: yaml.")
        String format;

        @Option(names = "--cells", description = "Print only the config's cell ids, one per line (for `profile --cell`).")
        boolean cells;

        @Override
        public Integer call() throws Exception {
            try {
                final BenchmarkConfig c = load();
                if (cells) {
                    CellPlan.ids(c).forEach(System.out::println);
                    return ExitCode.OK;
                }
                final ObjectMapper mapper = format.equalsIgnoreCase("json")
                        ? new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                        : new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));
                System.out.print(mapper.writeValueAsString(io.aiperf.engine.config.WholeNumbers.of(
                        Redactor.of(c).config(c.effectiveTree()))));
                return ExitCode.OK;
            } catch (ConfigException e) {
                System.err.println("error: invalid configuration: " + e.getMessage());
                return ExitCode.USAGE;
            }
        }
    }
}
