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
 */
public record MultiRunConfig(int numRuns, double cooldownSeconds, double confidenceLevel,
                             boolean disableWarmupAfterFirst, boolean setConsistentSeed, boolean sweepTable) {
    public static MultiRunConfig single() {
        return new MultiRunConfig(1, 0, 0.95, true, true, true);
    }
}
