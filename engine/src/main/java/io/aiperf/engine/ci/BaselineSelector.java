package io.aiperf.engine.ci;

import java.util.ArrayList;
import java.util.List;

/**
 * Picks the baseline builds for the gate from a build history, newest first. No match means no baseline,
 * which makes relative gate rules inactive (they pass and say so). Stateless.
 */
public final class BaselineSelector {
    /** One earlier build: its number, its result, and where its exports were archived (null if none). */
    public record Build(int number, Verdict result, String exportDir) {
    }

    /** How to choose. */
    public enum Policy { PREVIOUS_SUCCESSFUL, PREVIOUS_NOT_FAILED, BUILD_NUMBER, MEAN_OF_LAST }

    private BaselineSelector() {
    }

    /** As {@link #select(List, Policy, int)}, with the step's {@code baseline} text. */
    public static List<String> select(final List<Build> history, final BaselineChoice choice) {
        return select(history, choice.policy(), choice.argument());
    }

    /**
     * @param history earlier builds, newest first (the current build excluded)
     * @param argument the build number for BUILD_NUMBER, N for MEAN_OF_LAST (successful builds), unused otherwise
     * @return the chosen builds' export directories, newest first; empty for no baseline
     */
    public static List<String> select(final List<Build> history, final Policy policy, final int argument) {
        final List<String> out = new ArrayList<>();
        for (final Build b : history) {
            if (b.exportDir() == null) {
                continue;
            }
            final boolean take = switch (policy) {
                case PREVIOUS_SUCCESSFUL, MEAN_OF_LAST -> b.result() == Verdict.SUCCESS;
                case PREVIOUS_NOT_FAILED -> b.result() == Verdict.SUCCESS || b.result() == Verdict.UNSTABLE;
                case BUILD_NUMBER -> b.number() == argument;
            };
            if (take) {
                out.add(b.exportDir());
                final int wanted = policy == Policy.MEAN_OF_LAST ? Math.max(1, argument) : 1;
                if (out.size() >= wanted) {
                    break;
                }
            }
        }
        return out;
    }
}
