package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.config.YamlLoader;
import io.aiperf.engine.profile.ProfileRequest;
import io.aiperf.engine.redact.Redactor;
import io.aiperf.engine.search.SearchSpec;
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
                "  aiperf config expand -m my-model --concurrency 8,32 --streaming > bench.yaml"},
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
            io.aiperf.engine.dataset.ChatTemplateCounter.watched(c.tokenizer(), t.tokenizer()); // --apply-chat-template
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
            io.aiperf.engine.dataset.ChatTemplateCounter.watched(c.tokenizer(), t.tokenizer()); // --apply-chat-template
            return t.tokenizer().name() + " (" + t.tokenizer().source() + ")";
        }

        /**
         * The file's config; with a {@code search:} section, read as profile reads it and checked as profile checks
         * the search ({@link ConfigCommand#checkSearch}), and its {@code multi_run.convergence} as profile checks it:
         * a search or convergence profile refuses is invalid here too.
         */
        private BenchmarkConfig searchedOrLoaded() {
            final ProfileCommand profile = new ProfileCommand();
            new picocli.CommandLine(profile).parseArgs("-f", file().toString());
            final ProfileRequest request = profile.request();
            final SearchSpec search = request.search();
            if (search == null) {
                final BenchmarkConfig config = load();
                io.aiperf.engine.profile.ConfigChecks.convergent(request.convergence(), config, false, false);
                return config;
            }
            final OptionsConfigSource source = new OptionsConfigSource(profile.options, search, profile.loadedFile);
            final BenchmarkConfig config = source.load();
            checkSearch(search, profile.options, config, source);
            io.aiperf.engine.profile.ConfigChecks.convergent(request.convergence(), config, true, false);
            return config;
        }

        @Override
        public Integer call() {
            try {
                final BenchmarkConfig c = searchedOrLoaded();
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

    /**
     * {@code aiperf config expand}: the effective config of a YAML file, of profile's options, or of both (the flags
     * override the file, as in profile), every default filled in and secrets redacted, a capacity search as its
     * {@code search:} section ({@link SearchExpansion}), a convergence as its {@code multi_run.convergence}. A dry run: nothing is sent and no tokenizer is loaded.
     */
    @Command(name = "expand", mixinStandardHelpOptions = true, description = "Print the effective config of a YAML "
            + "file, of profile's options, or of both (the flags override the file), with every default filled in "
            + "and secrets redacted; a capacity search (the --search-* options, or the file's search:) as its "
            + "search: section; a convergence (the --convergence-* options, or the file's multi_run.convergence) "
            + "as its multi_run.convergence. A dry run: nothing is sent and no tokenizer is loaded.")
    static final class Expand implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        ProfileOptions options;

        @picocli.CommandLine.Mixin
        SearchOptions searchOptions;

        @picocli.CommandLine.Mixin
        ConvergenceOptions convergenceOptions;

        @Option(names = "--config-file", paramLabel = "FILE", description = "The YAML file; the same as -f.")
        Path configFile;

        @picocli.CommandLine.Parameters(arity = "0..1", paramLabel = "CONFIG", description = "The YAML file, as "
                + "upstream writes it (aiperf config expand bench.yaml); the same as -f.")
        Path positional;

        @Option(names = "--format", defaultValue = "yaml", paramLabel = "FORMAT", description = "yaml or json. Default: yaml.")
        String format;

        @Option(names = "--cells", description = "Print only the config's cell ids, one per line (for `profile --cell`).")
        boolean cells;

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            final long files = java.util.stream.Stream.of(options.config, configFile, positional)
                    .filter(java.util.Objects::nonNull).count();
            if (files > 1) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Give the config file once: "
                        + "as the argument, with -f or with --config-file");
            }
            if (options.config == null) {
                options.config = configFile != null ? configFile : positional;
            }
            try {
                // the file's search: first, so that whether a search is asked for is known before any load
                final com.fasterxml.jackson.databind.node.ObjectNode file = options.config == null ? null
                        : YamlLoader.load(options.config, System.getenv());
                searchOptions.defaults(file == null ? null : file.get(SearchSection.KEY));
                convergenceOptions.defaults(file);
                final io.aiperf.engine.convergence.ConvergenceSpec convergence = convergenceOptions.spec();
                final SearchSpec search = searchOptions.spec(SearchOptions.confidenceLevel(options, file), convergence);
                final OptionsConfigSource source = new OptionsConfigSource(options, search, file);
                final BenchmarkConfig given = source.load();
                if (search != null) {
                    checkSearch(search, options, given, source);
                }
                io.aiperf.engine.profile.ConfigChecks.convergent(convergence, given, search != null, false);
                if (cells) {
                    CellPlan.ids(given).forEach(System.out::println);
                    return ExitCode.OK;
                }
                final ObjectNode effective = search == null ? given.effective().copy()
                        : SearchExpansion.tree(source, search, searchOptions);
                if (convergence != null) {
                    effective.withObjectProperty("multi_run").set("convergence", ConvergenceOptions.section(convergence));
                }
                final Redactor redactor = Redactor.of(given);
                final Object tree = io.aiperf.engine.config.WholeNumbers.of(redactor.config(effective));
                if (format.equalsIgnoreCase("json")) {
                    System.out.print(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                            .writeValueAsString(tree));
                    return ExitCode.OK;
                }
                System.out.print(ExpandHeader.of(redactor.command(spec.commandLine().getParseResult().originalArgs()
                        .toArray(String[]::new)), search));
                System.out.print(new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER))
                        .writeValueAsString(tree));
                return ExitCode.OK;
            } catch (ConfigException e) {
                System.err.println("error: invalid configuration: " + e.getMessage());
                return ExitCode.USAGE;
            }
        }
    }

    /** What profile refuses in a capacity search, before any traffic: config expand and validate refuse it too. */
    private static void checkSearch(final SearchSpec search, final ProfileOptions options, final BenchmarkConfig config,
                                     final OptionsConfigSource source) {
        final String knobFlag = SearchSection.knobFlag(search, options);
        if (knobFlag != null) {
            throw new ConfigException(knobFlag, "a capacity search sets the " + search.knob() + " of each point; "
                    + "remove " + knobFlag);
        }
        io.aiperf.engine.profile.ConfigChecks.searchable(config, search, source);
    }

    /** The comment that heads an expanded YAML: what it was expanded from, and how to use it. */
    static final class ExpandHeader {
        private ExpandHeader() {
        }

        /**
         * @param command the command line as typed, its secrets already redacted
         * @param search the capacity search it holds, or null
         */
        static String of(final String command, final SearchSpec search) {
            return "# The effective config of: " + command.replaceAll("[\\r\\n]", " ") + "\n"
                    + "# Every default filled in, secrets redacted; a dry run: nothing was sent.\n"
                    + (search == null ? "" : "# A capacity search: profile sets the " + search.knob() + " of each "
                    + "point, and what follows from it; the phases show its low end, " + search.min() + ".\n")
                    + "# Check it with: aiperf config validate FILE; run it with: aiperf profile -f FILE\n";
        }
    }
}
