package io.aiperf.engine.config;

import java.util.List;
import java.util.Locale;

/** Binds {@code multi_run}: the trials of a run and how a sweep repeats them. */
final class MultiRunBinder {
    private MultiRunBinder() {
    }

    static MultiRunConfig bind(final Section m, final boolean sweepTable) {
        // convergence is read by the command line's ConvergenceOptions (src-docs/capacity.md)
        m.allowOnly(List.of("num_runs", "cooldown_seconds", "confidence_level", "disable_warmup_after_first",
                "set_consistent_seed", "convergence", "vary_seed_per_trial", "sweep_cooldown_seconds",
                "sweep_same_seed", "sweep_mode"));
        final int runs = m.defaultedInteger("num_runs");
        if (runs < 1 || runs > 10) {
            throw m.error("num_runs", "Input should be between 1 and 10");
        }
        final double cooldown = m.defaultedNumber("cooldown_seconds");
        if (!(cooldown >= 0) || Double.isInfinite(cooldown)) {
            throw m.error("cooldown_seconds", "Input should be greater than or equal to 0");
        }
        final double level = m.defaultedNumber("confidence_level");
        if (!(level > 0 && level < 1)) {
            throw m.error("confidence_level", "Input should be between 0 and 1 (exclusive)");
        }
        final double sweepCooldown = m.defaultedNumber("sweep_cooldown_seconds");
        if (!(sweepCooldown >= 0) || Double.isInfinite(sweepCooldown)) {
            throw m.error("sweep_cooldown_seconds", "Input should be greater than or equal to 0");
        }
        final String mode = m.defaultedString("sweep_mode").toLowerCase(Locale.ROOT);
        if (!List.of("repeated", "independent").contains(mode)) {
            throw m.error("sweep_mode", "expected repeated or independent, got '" + mode + "'");
        }
        return new MultiRunConfig(runs, cooldown, level, m.bool("disable_warmup_after_first", true),
                m.bool("set_consistent_seed", true), sweepTable, m.bool("vary_seed_per_trial", false), sweepCooldown,
                m.bool("sweep_same_seed", false), mode.equals("independent"));
    }
}
