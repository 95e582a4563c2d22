package io.aiperf.engine.gate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A baseline the gate was told it needs ({@code --require-baseline}, {@code require_baseline: true}; src-docs/gating.md):
 * without one, a lost baseline (an evicted cache, a renamed job) would make every relative rule inactive and the build
 * green. Then every rule with a relative limit fails, naming where the gate looked. Stateless.
 */
final class BaselineRequirement {
    private BaselineRequirement() {
    }

    /** Where the gate looked and what it found there, e.g. "/ci/baseline (does not exist)". */
    static String looked(final List<Path> baselines) {
        if (baselines.isEmpty()) {
            return "no --baseline was given";
        }
        final List<String> out = new ArrayList<>();
        for (final Path b : baselines) {
            out.add(b.toAbsolutePath() + (Files.exists(b) ? " (holds no profile_export_aiperf.json or aggregate)"
                    : " (does not exist)"));
        }
        return "looked in " + String.join(", ", out);
    }

    /** The result with every relative rule failed for want of the baseline. */
    static GateResult missing(final GateResult result, final List<Path> baselines) {
        final String why = "failed: a baseline is required (--require-baseline or require_baseline: true) and there "
                + "is none: " + looked(baselines);
        final List<RuleResult> out = new ArrayList<>();
        for (final RuleResult r : result.results()) {
            out.add(!r.rule().hasRelativeLimit() ? r : new RuleResult(r.rule(), r.cell(), r.unit(), r.baseline(),
                    r.baselineTrials(), r.candidate(), r.candidateTrials(), r.delta(), r.deltaPct(), r.pValue(),
                    r.effectSize(), Status.FAILED, why + " [" + r.message() + "]", r.changeLowPct(),
                    r.changeHighPct()));
        }
        return new GateResult(out);
    }
}
