package io.aiperf.engine.cli;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.RunDirectory;
import io.aiperf.engine.gate.GateReports;
import io.aiperf.engine.gate.GateResult;
import io.aiperf.engine.gate.GateRunner;
import io.aiperf.engine.gate.RunData;
import io.aiperf.engine.profile.ArtifactDirs;
import io.aiperf.engine.profile.CellContexts;
import io.aiperf.engine.profile.Interrupts;
import io.aiperf.engine.redact.Redactor;
import io.aiperf.engine.report.HtmlReport;
import io.aiperf.engine.report.ReportFiles;
import io.aiperf.engine.run.CellContext;
import io.aiperf.engine.run.CellResult;
import io.aiperf.engine.sweep.InterleavedComparison;
import io.aiperf.engine.sweep.RunAssembler;
import io.aiperf.engine.time.CancellationToken;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code aiperf compare}: the same benchmark against two endpoints, interleaved, then B gated against A. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Run the same benchmark against two endpoints in interleaved pairs of cells (A B, B A, ...), "
                + "each after a KV-cache reset, and gate B against A. Exit codes as for profile with --gate.",
        footerHeading = "%nExamples:%n", footer = {
                "  aiperf compare --a http://old:8000 --b http://new:8000 -m m --concurrency 8",
                "  aiperf compare --a http://old:8000 --b http://new:8000 -m m --pairs 5 \\",
                "      --gate rules.yaml",
                "  aiperf compare --a $A --b $B -m m --request-rate 10 --benchmark-duration 2m"})
public final class CompareCommand implements Callable<Integer> {
    @Mixin
    ProfileOptions options;

    @Option(names = "--a", required = true, paramLabel = "URL", description = "The reference endpoint (the baseline).")
    String urlA;

    @Option(names = "--b", required = true, paramLabel = "URL", description = "The endpoint under test (the candidate).")
    String urlB;

    @Option(names = "--pairs", paramLabel = "N", description = "Pairs of cells, one trial per side each (1-50). Default: 3.")
    int pairs = 3;

    @Option(names = "--gate", paramLabel = "RULES", description = "Gate B against A with these rules after the run.")
    Path gateRules;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final CancellationToken cancellation = new CancellationToken();

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        PrintStream err = System.err;
        final String misuse = misuse();
        if (misuse != null) {
            err.println("error: " + misuse);
            return ExitCode.USAGE;
        }
        if (gateRules != null) {
            try {
                io.aiperf.engine.gate.GateRulesLoader.read(gateRules); // rule errors stop us before any traffic
            } catch (ConfigException e) {
                err.println("error: invalid configuration: --gate: " + e.getMessage());
                return ExitCode.USAGE;
            }
        }
        if (options.resetKvCache == null) {
            options.resetKvCache = true; // the point of interleaving: every cell starts from the same cache
        }
        final BenchmarkConfig a;
        final BenchmarkConfig b;
        final String tokenizerWarning;
        try {
            a = side(urlA, "--a");
            b = side(urlB, "--b");
            final io.aiperf.engine.dataset.TokenizerResolver.Resolved resolved = io.aiperf.engine.dataset
                    .TokenizerResolver.resolve(a.tokenizer(), a.primaryModel(), System.getenv(),
                            new io.aiperf.engine.hub.HfHub(a.endpoint().network()));
            io.aiperf.engine.dataset.ChatTemplateCounter.watched(a.tokenizer(), resolved.tokenizer());
            tokenizerWarning = resolved.warning();
        } catch (ConfigException e) {
            err.println("error: invalid configuration: " + e.getMessage());
            return ExitCode.USAGE;
        }
        final Redactor redactor = Redactor.of(a).and(Redactor.of(b)); // each side's URL may carry its own secret
        out = redactor.console(System.out);
        err = redactor.console(System.err);
        final PrintStream warn = err;
        a.warnings().forEach(w -> warn.println("warning: " + w));
        if (tokenizerWarning != null) {
            warn.println("warning: " + tokenizerWarning);
        }
        final Path dir = ArtifactDirs.of(a);
        final String unwritable = ArtifactDirs.unwritable(dir);
        if (unwritable != null) {
            err.println("error: invalid configuration: --artifact-dir (benchmark.artifacts.dir): " + unwritable);
            return ExitCode.USAGE;
        }
        final RunDirectory runDirectory;
        try {
            runDirectory = RunDirectory.claim(dir, null);
        } catch (ConfigException e) {
            err.println("error: " + e.getMessage());
            return ExitCode.USAGE;
        }
        try (runDirectory) {
            final CellContext ctx = CellContexts.of(a, out, err, redactor, cancellation,
                    spec.commandLine().getParseResult().originalArgs(), options.logLevel());
            final Interrupts interrupts = Interrupts.install(cancellation, err);
            try {
                final InterleavedComparison.Compared compared = InterleavedComparison.run(a, b, pairs, dir, ctx);
                final int exit = compared.exitCode();
                if (ExitCode.stopped(exit)) {
                    return ExitCode.stopped(interrupts.terminated());
                }
                if (gateRules == null || exit != ExitCode.OK) {
                    return exit;
                }
                return gate(dir, compared, a.artifacts().prefix(), out, err);
            } finally {
                interrupts.uninstall();
            }
        }
    }

    /**
     * {@code --gate}: B judged against A, both as their cells returned them (nothing read back), then the report with
     * the verdict.
     */
    private int gate(final Path dir, final InterleavedComparison.Compared compared, final String prefix,
                     final PrintStream out, final PrintStream err) {
        final ExportNames names = ExportNames.of(prefix);
        final Path dirA = dir.resolve(InterleavedComparison.A);
        final Path dirB = dir.resolve(InterleavedComparison.B);
        try {
            final GateResult result = GateRunner.run(gateRules, dirA, side(dirA, compared.a(), names), side(dirB,
                    compared.b(), names), dirB, dir, System.out);
            InterleavedComparison.writeReport(dir, compared, GateReports.tree(result, List.of(dirA), dirB), prefix,
                    out, err);
            RunDirectory.adopt(dir, List.of(dir.resolve(HtmlReport.FILE), dir.resolve(ReportFiles.SVG_FILE)));
            return result.exitCode();
        } catch (ConfigException e) {
            System.err.println("error: gate: " + e.getMessage());
            return ExitCode.USAGE;
        }
    }

    private static RunData side(final Path dir, final List<CellResult> cells, final ExportNames names) {
        return RunData.of(dir, cells.stream().map(CellResult::outcome).toList(), RunAssembler.inMemory(cells), null,
                names);
    }

    /** One side's config: the shared options with that side's URL. */
    private BenchmarkConfig side(final String url, final String flag) {
        options.urls = List.of(url);
        final BenchmarkConfig config;
        try {
            config = ConfigLoader.load(options.config, options.overlay(), System.getenv());
        } catch (ConfigException e) {
            throw new ConfigException(flag + ": " + e.field(), e.reason());
        }
        if (config.isSweep()) {
            throw new ConfigException(flag, "compare runs one load point; sweep it with profile, or compare one point");
        }
        if (config.multiRun().numRuns() > 1) {
            throw new ConfigException("--num-profile-runs", "compare sets the trials itself: use --pairs");
        }
        return config;
    }

    private String misuse() {
        if (options.urls != null && !options.urls.isEmpty()) {
            return "compare takes its two endpoints as --a and --b; remove -u/--url";
        }
        if (pairs < 1 || pairs > 50) {
            return "--pairs must be between 1 and 50, got " + pairs;
        }
        return null;
    }
}
