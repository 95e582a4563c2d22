package io.aiperf.engine.cli;

import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigException;
import picocli.CommandLine.Option;

/**
 * Upstream AIPerf's seed and order options of trials and sweeps (its Multi-Run and Sweep options; src-docs/trials.md,
 * "Seeds and order").
 */
@Topic(HelpTopic.TRIALS)
public final class TrialSweepOptions {
    @Option(names = "--vary-seed-per-trial", description = "Each trial draws other prompts and arrivals: its seed is "
            + "derived from the seed, the sweep point and the trial number. Default: every trial uses the same seed.")
    Boolean varySeedPerTrial;
    @Option(names = "--no-vary-seed-per-trial", description = "Every trial uses the same seed (the default).")
    Boolean noVarySeedPerTrial;
    @Yaml(value = "multi_run.sweep_cooldown_seconds", defaultValue = "0")
    @Option(names = "--parameter-sweep-cooldown-seconds", paramLabel = "SECONDS", converter = DurationConverter.class,
            description = "Pause between two sweep points.")
    Double parameterSweepCooldownSeconds;
    @Option(names = "--parameter-sweep-same-seed", description = "Every sweep point uses --random-seed itself "
            + "(correlated comparisons). Default: point i uses seed + i.")
    Boolean parameterSweepSameSeed;
    @Option(names = "--no-parameter-sweep-same-seed", description = "Point i of a sweep uses seed + i (the default).")
    Boolean noParameterSweepSameSeed;
    @Yaml(value = "multi_run.sweep_mode", defaultValue = "repeated")
    @Option(names = "--parameter-sweep-mode", paramLabel = "ORDER", description = "repeated (trials outer: every "
            + "point runs in trial 1, then in trial 2, ...) or independent (all trials of a point, then the next "
            + "point).")
    String parameterSweepMode;

    /** Sets the keys of the negated flags and checks the pairs that exclude each other; the table sets the rest. */
    void apply(final CliOverlay o, final Long randomSeed) {
        if (varySeedPerTrial != null && noVarySeedPerTrial != null) {
            throw new ConfigException("--no-vary-seed-per-trial", "give it or --vary-seed-per-trial, not both");
        }
        if (parameterSweepSameSeed != null && noParameterSweepSameSeed != null) {
            throw new ConfigException("--no-parameter-sweep-same-seed", "give it or --parameter-sweep-same-seed, "
                    + "not both");
        }
        if (Boolean.TRUE.equals(parameterSweepSameSeed) && randomSeed == null) {
            throw new ConfigException("--parameter-sweep-same-seed", "needs --random-seed: the seed every point uses");
        }
        o.multiRun("vary_seed_per_trial", noVarySeedPerTrial != null ? Boolean.FALSE : varySeedPerTrial,
                "--vary-seed-per-trial");
        o.multiRun("sweep_same_seed", noParameterSweepSameSeed != null ? Boolean.FALSE : parameterSweepSameSeed,
                "--parameter-sweep-same-seed");
    }
}
