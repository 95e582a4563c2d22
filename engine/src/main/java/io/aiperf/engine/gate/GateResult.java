package io.aiperf.engine.gate;

import java.util.List;

/** Every rule result and the verdict: the worst status, where inactive counts as passed. */
public record GateResult(List<RuleResult> results) {
    public Status verdict() {
        Status worst = Status.PASSED;
        for (final RuleResult r : results) {
            if (r.status().ordinal() > worst.ordinal() && r.status() != Status.INACTIVE) {
                worst = r.status();
            }
        }
        return worst;
    }

    /** 0 passed or inactive, 3 unstable, 4 inconclusive, 1 failed. */
    public int exitCode() {
        return switch (verdict()) {
            case FAILED -> io.aiperf.engine.ci.ExitCode.FAILED;
            case UNSTABLE -> io.aiperf.engine.ci.ExitCode.GATE_UNSTABLE;
            case INCONCLUSIVE -> io.aiperf.engine.ci.ExitCode.GATE_INCONCLUSIVE;
            default -> io.aiperf.engine.ci.ExitCode.OK;
        };
    }
}
