package io.aiperf.engine.ci;

import java.util.List;

/**
 * A job's health (Jenkins' weather icon) from the verdicts of its last benchmarked builds: the share that passed,
 * in percent. Stateless.
 *
 * @param score 0 (every build failed its gate) to 100 (every build passed)
 * @param description what the score counts, for the tooltip
 */
public record BuildHealth(int score, String description) {
    /** How many of the last builds with results count. */
    public static final int BUILDS = 5;

    /** @param verdicts {@link Verdict} names, newest first; at most {@link #BUILDS} are used */
    public static BuildHealth of(final List<String> verdicts) {
        final List<String> last = verdicts.subList(0, Math.min(BUILDS, verdicts.size()));
        if (last.isEmpty()) {
            return new BuildHealth(100, "AIPerf: no benchmarked build yet");
        }
        final long passed = last.stream().filter(Verdict.SUCCESS.name()::equals).count();
        return new BuildHealth((int) Math.round(100.0 * passed / last.size()),
                "AIPerf: " + passed + " of the last " + last.size() + " benchmarked builds passed");
    }
}
