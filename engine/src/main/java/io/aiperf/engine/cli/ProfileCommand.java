package io.aiperf.engine.cli;

import static io.aiperf.engine.cli.HelpTopic.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.YamlLoader;
import io.aiperf.engine.convergence.ConvergenceSpec;
import io.aiperf.engine.profile.ProfileGate;
import io.aiperf.engine.profile.ProfilePlan;
import io.aiperf.engine.profile.ProfileRequest;
import io.aiperf.engine.search.SearchResult;
import io.aiperf.engine.search.SearchSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code aiperf profile}: one benchmark cell against an OpenAI-compatible server. It parses, says which flags do not
 * go together, and hands the rest to the engine's {@link ProfilePlan}.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = "Run a benchmark against an OpenAI-compatible server and write AIPerf's export files.",
        footerHeading = "%nExamples:%n", footer = {
                "  # the embedded mock server, after a short warmup",
                "  aiperf profile --mock --streaming --concurrency 8 --request-count 100 \\",
                "      --warmup-request-count 20",
                "  # a Poisson rate for 5 minutes, quiet, the summary as JSON for jq",
                "  aiperf profile -u http://localhost:8000 --streaming --request-rate 20 \\",
                "      --benchmark-duration 5m --quiet --output-format json | jq .goodput",
                "  # a concurrency sweep, 3 trials each, gated against a baseline",
                "  aiperf profile -f bench.yaml --concurrency 8,32 --num-profile-runs 3 \\",
                "      --gate rules.yaml --baseline artifacts/baseline"})
public final class ProfileCommand implements Callable<Integer> {
    @Mixin
    ProfileOptions options;

    @Mixin
    SearchOptions searchOptions;

    @Mixin
    ConvergenceOptions convergenceOptions;

    @Topic(ENDPOINT)
    @Option(names = "--mock", description = "Start the embedded mock server (TTFT 20 ms, ITL 5 ms) and benchmark it.")
    boolean mock;

    @Topic(ENDPOINT)
    @Option(names = "--mock-max-slots", paramLabel = "N", description = "With --mock: serve at most N requests at once "
            + "and queue the rest, as mock-server --max-slots does (for trying a capacity search). Default: 0 (unlimited).")
    int mockMaxSlots;

    @Topic(CI)
    @Option(names = "--gate", paramLabel = "RULES", description = "Run the regression gate with these rules after the run.")
    Path gateRules;

    @Topic(CI)
    @Option(names = "--baseline", paramLabel = "RUN", description = "Baseline run for --gate; repeat for the mean of several.")
    List<Path> baselines = new java.util.ArrayList<>();

    @Topic(CI)
    @Option(names = "--require-baseline", description = GateCommand.REQUIRE_BASELINE)
    boolean requireBaseline;

    @Topic(CI)
    @Option(names = "--label", paramLabel = "TEXT", description = "This run's name in trends (aiperf report --trend), "
            + "e.g. the CI build number; recorded in run_label.json. Default: the artifact directory's name.")
    String label;

    @Topic(TRIALS)
    @Option(names = "--cell", paramLabel = "ID", description = "Run only this cell (an id from `config expand --cells`); "
            + "repeatable. Merge cells run apart with `aiperf aggregate`.")
    List<String> cells = new java.util.ArrayList<>();

    @Topic(OUTPUT)
    @Option(names = "--output-format", paramLabel = "OUTPUT", completionCandidates = Candidates.OutputFormats.class,
            description = "text (the default) or json: stdout carries only the summary as JSON (a sweep's: every cell's "
                    + "summary by cell id), for jq; the console's text goes to stderr.")
    String outputFormat = "text";

    @Topic(CI)
    @Option(names = "--pid-file", paramLabel = "FILE", description = "Write this process's id here while it runs "
            + "(for CI integrations that stop a run with SIGTERM or SIGINT).")
    Path pidFile;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final String misuse = misuse();
        if (misuse != null) {
            return usage(misuse);
        }
        final ProfileRequest request;
        try {
            request = request();
        } catch (ConfigException e) {
            return usage("invalid configuration: " + e.getMessage());
        }
        final String searchMisuse = searchMisuse(request.search());
        if (searchMisuse != null) {
            return usage(searchMisuse);
        }
        return new ProfilePlan(request, new OptionsConfigSource(options, request.search(), loadedFile)).run();
    }

    /** The {@code -f} file as {@link #request} read it, handed to the config source: read once per run. */
    ObjectNode loadedFile;

    /** What the command line asks besides the config; the YAML file's search and convergence settings too. */
    ProfileRequest request() {
        final ObjectNode file = options.config == null ? null : YamlLoader.load(options.config, System.getenv());
        loadedFile = file;
        searchOptions.defaults(file == null ? null : file.get("search"));
        convergenceOptions.defaults(file);
        final ConvergenceSpec convergence = convergenceOptions.spec();
        final SearchSpec search = searchOptions.spec(SearchOptions.confidenceLevel(options, file), convergence);
        return new ProfileRequest(mock ? new ProfileRequest.Mock(options.apiKey, mockMaxSlots) : null,
                gateRules == null ? null : new ProfileGate(gateRules, baselines, requireBaseline), label, cells,
                json(), pidFile, search, convergence, options.logLevel(),
                spec.commandLine().getParseResult().originalArgs());
    }

    private boolean json() {
        return "json".equalsIgnoreCase(outputFormat);
    }

    private static int usage(final String message) {
        System.err.println("error: " + message);
        return ExitCode.USAGE;
    }

    /** A capacity search sets the knob of each point itself; null when nothing is in its way. */
    private String searchMisuse(final SearchSpec search) {
        if (search == null) {
            return null;
        }
        final String knobFlag = SearchSection.knobFlag(search, options);
        if (knobFlag == null && cells.isEmpty() && !json()) {
            return null;
        }
        return "a capacity search sets the " + search.knob() + " of each point and writes " + SearchResult.FILE_NAME
                + "; remove " + (knobFlag != null ? knobFlag : !cells.isEmpty() ? "--cell" : "--output-format json");
    }

    /** Flags that make no sense together, said before anything starts; null when there are none. */
    private String misuse() {
        if (!json() && !"text".equalsIgnoreCase(outputFormat)) {
            return "invalid configuration: --output-format: expected text or json, got '" + outputFormat + "'";
        }
        if (label != null && io.aiperf.engine.ci.RunLabel.invalid(label) != null) {
            return "invalid configuration: " + io.aiperf.engine.ci.RunLabel.invalid(label);
        }
        if (mock && options.urls != null && !options.urls.isEmpty()) {
            return "--mock starts its own server and benchmarks it; remove -u/--url, or remove --mock to benchmark "
                    + String.join(", ", options.urls);
        }
        if (mockMaxSlots != 0 && (!mock || mockMaxSlots < 0)) {
            return mockMaxSlots < 0 ? "--mock-max-slots: must not be negative (0 = unlimited)"
                    : "--mock-max-slots sets the slots of the --mock server; add --mock, or remove --mock-max-slots";
        }
        if (!baselines.isEmpty() && gateRules == null) {
            return "--baseline is what the gate compares with: add --gate RULES, or remove --baseline";
        }
        if (requireBaseline && gateRules == null) {
            return "--require-baseline is about the gate's baseline: add --gate RULES, or remove --require-baseline";
        }
        return null;
    }
}
