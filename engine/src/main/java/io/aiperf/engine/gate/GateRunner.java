package io.aiperf.engine.gate;

import io.aiperf.engine.export.AtomicFiles;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/** Rules + baselines + candidate to the three report files and an exit code. */
public final class GateRunner {
    private GateRunner() {
    }

    /**
     * @param baselines zero or more run directories or summary files (several: their mean)
     * @return the gate's result (its exit code: 0 passed or inactive, 3 unstable, 4 inconclusive, 1 failed)
     */
    public static GateResult run(final Path rules, final List<Path> baselines, final Path candidate,
                                 final Path outputDir, final PrintStream out) {
        return run(rules, baselines, candidate, outputDir, out, false);
    }

    /** @param requireBaseline whether a missing or empty baseline fails the relative rules (also: the rules file) */
    public static GateResult run(final Path rules, final List<Path> baselines, final Path candidate,
                                 final Path outputDir, final PrintStream out, final boolean requireBaseline) {
        return run(rules, baselines, () -> RunData.load(List.of(candidate)), candidate, outputDir, out,
                requireBaseline);
    }

    /**
     * As {@link #run(Path, List, Path, Path, PrintStream, boolean)} for a candidate already in memory (the run
     * {@code profile --gate} just made, {@link RunData#of}).
     *
     * @param candidateDir where the candidate's files are, as the gate's result names it
     */
    public static GateResult run(final Path rules, final List<Path> baselines, final RunData candidate,
                                 final Path candidateDir, final Path outputDir, final PrintStream out,
                                 final boolean requireBaseline) {
        return run(rules, baselines, () -> candidate, candidateDir, outputDir, out, requireBaseline);
    }

    /**
     * A comparison's two runs, both just made in this process ({@code aiperf compare}): the baseline and the candidate
     * as their cells returned them, nothing read back.
     *
     * @param baselineDir where the baseline's files are, as the gate's result names it
     */
    public static GateResult run(final Path rules, final Path baselineDir, final RunData baseline,
                                 final RunData candidate, final Path candidateDir, final Path outputDir,
                                 final PrintStream out) {
        removePreviousReports(outputDir);
        final GateRules parsed = GateRulesLoader.read(rules);
        if (baseline != null) {
            baseline.notes().forEach(n -> out.println("Gate: baseline " + n));
        }
        candidate.notes().forEach(n -> out.println("Gate: candidate " + n));
        return judged(GateEvaluator.evaluate(parsed, baseline, candidate), List.of(baselineDir), candidateDir,
                outputDir, out);
    }

    private static GateResult run(final Path rules, final List<Path> baselines, final Supplier<RunData> candidate,
                                  final Path candidatePath, final Path outputDir, final PrintStream out,
                                  final boolean requireBaseline) {
        removePreviousReports(outputDir);
        final GateRules parsed = GateRulesLoader.read(rules);
        final boolean required = requireBaseline || parsed.requireBaseline();
        final List<Path> usable = new java.util.ArrayList<>();
        for (final Path b : baselines) {
            if (required && !java.nio.file.Files.exists(b)) {
                // Required and lost (an evicted cache, a renamed job): the relative rules fail, naming the place.
                out.println("Gate: baseline " + b.toAbsolutePath() + " does not exist; a baseline is required, so the "
                        + "relative rules fail");
            } else if (RunData.checkBaseline(b)) {
                usable.add(b);
            } else {
                // A first build has an empty baseline directory: its relative rules are inactive, never an error.
                out.println("Gate: baseline " + b.toAbsolutePath() + " holds no results" + (required
                        ? "; a baseline is required, so the relative rules fail" : " (a first build?); relative rules are inactive"));
            }
        }
        final RunData base = usable.isEmpty() ? null : RunData.load(usable);
        final RunData cand = candidate.get(); // after the rules and baselines, whose errors come first
        if (base != null) {
            base.notes().forEach(n -> out.println("Gate: baseline " + n));
        }
        cand.notes().forEach(n -> out.println("Gate: candidate " + n));
        final GateResult evaluated = GateEvaluator.evaluate(parsed, base, cand);
        final GateResult result = required && base == null ? BaselineRequirement.missing(evaluated, baselines) : evaluated;
        return judged(result, baselines, candidatePath, outputDir, out);
    }

    /** The previous verdict goes first: a gate killed or refused from here on leaves no report, never an old PASS. */
    private static void removePreviousReports(final Path outputDir) {
        for (final String report : List.of(GateReports.JSON_FILE, GateReports.JUNIT_FILE, GateReports.MARKDOWN_FILE)) {
            try {
                java.nio.file.Files.deleteIfExists(outputDir.resolve(report));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot remove the previous gate report " + outputDir.resolve(
                        report) + ": " + e.getMessage(), e);
            }
        }
    }

    /** Writes the gate's reports and prints its verdict. */
    private static GateResult judged(final GateResult result, final List<Path> baselines, final Path candidatePath,
                                     final Path outputDir, final PrintStream out) {
        AtomicFiles.write(outputDir.resolve(GateReports.JSON_FILE), GateReports.json(result, baselines, candidatePath));
        AtomicFiles.write(outputDir.resolve(GateReports.JUNIT_FILE), GateReports.junit(result));
        AtomicFiles.write(outputDir.resolve(GateReports.MARKDOWN_FILE), GateReports.markdown(result));
        // a gate run on its own adds its reports to the run's manifest: a re-run removes them with the run
        io.aiperf.engine.export.RunDirectory.adopt(outputDir, List.of(outputDir.resolve(GateReports.JSON_FILE),
                outputDir.resolve(GateReports.JUNIT_FILE), outputDir.resolve(GateReports.MARKDOWN_FILE)));
        out.println("Gate: " + result.verdict().wireName().toUpperCase(java.util.Locale.ROOT));
        for (final RuleResult r : result.results()) {
            out.println("  [" + r.status().wireName() + "] " + r.cell() + ": " + withoutStatus(r));
        }
        out.println("Gate reports: " + outputDir.resolve(GateReports.MARKDOWN_FILE).toAbsolutePath());
        return result;
    }

    /** The message without a leading "passed: " when the line's brackets already say so. */
    static String withoutStatus(final RuleResult r) {
        final String prefix = r.status().wireName() + ": ";
        return r.message().startsWith(prefix) ? r.message().substring(prefix.length()) : r.message();
    }
}
