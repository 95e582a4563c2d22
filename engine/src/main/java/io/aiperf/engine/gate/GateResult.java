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

    /** 0 passed or inactive, 3 unstable, 1 failed. */
    public int exitCode() {
        return switch (verdict()) {
            case FAILED -> 1;
            case UNSTABLE -> 3;
            default -> 0;
        };
    }
}
