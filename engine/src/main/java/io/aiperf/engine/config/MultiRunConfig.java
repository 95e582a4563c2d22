package io.aiperf.engine.config;

/**
 * Repeated trials of one configuration (AIPerf's multi-run and sweep docs {@code multi_run}).
 *
 * @param numRuns trials, 1-10
 * @param cooldownSeconds pause between trials
 * @param confidenceLevel for the Student-t intervals of the aggregate
 * @param disableWarmupAfterFirst drop warmup phases from trials 2+
 * @param setConsistentSeed use seed 42 when none is given, so every trial sees the same prompts
 * @param sweepTable print the table of the sweep points after the last cell (upstream's envelope key
 *     {@code no_sweep_table} and {@code --no-sweep-table} turn it off)
 * @param varySeedPerTrial each trial gets a seed of its own, derived from the seed, the point and the trial
 *     ({@code --vary-seed-per-trial}); otherwise every trial of a point uses the point's seed
 * @param sweepCooldownSeconds pause between two sweep points ({@code --parameter-sweep-cooldown-seconds})
 * @param sweepSameSeed every sweep point uses the seed itself ({@code --parameter-sweep-same-seed}); otherwise point
 *     i uses seed + i
 * @param independentOrder sweep points outer, trials inner ({@code --parameter-sweep-mode independent}); otherwise
 *     trials outer, points inner (repeated, the default)
 */
public record MultiRunConfig(int numRuns, double cooldownSeconds, double confidenceLevel,
                             boolean disableWarmupAfterFirst, boolean setConsistentSeed, boolean sweepTable,
                             boolean varySeedPerTrial, double sweepCooldownSeconds, boolean sweepSameSeed,
                             boolean independentOrder) {
    public MultiRunConfig(final int numRuns, final double cooldownSeconds, final double confidenceLevel,
                          final boolean disableWarmupAfterFirst, final boolean setConsistentSeed,
                          final boolean sweepTable) {
        this(numRuns, cooldownSeconds, confidenceLevel, disableWarmupAfterFirst, setConsistentSeed, sweepTable, false,
                0, false, false);
    }

    public static MultiRunConfig single() {
        return new MultiRunConfig(1, 0, 0.95, true, true, true);
    }
}
