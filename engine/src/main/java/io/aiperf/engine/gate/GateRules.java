package io.aiperf.engine.gate;

import io.aiperf.engine.validity.Thresholds;
import java.util.List;

/**
 * A rules file: the rules, the validity thresholds that decide when a run is too broken to judge, and the
 * fingerprint fields baseline and candidate must share (src-docs/gating.md, src-docs/validity.md), and whether a
 * missing baseline fails the relative rules ({@code require_baseline}).
 *
 * @param requireSame the fields named by the file, or null for the defaults
 *                    ({@link io.aiperf.engine.validity.Fingerprint#DEFAULT_REQUIRED})
 */
public record GateRules(List<GateRule> rules, Thresholds validity, List<String> requireSame, boolean requireBaseline) {
    /** Rules that need no baseline: a missing one makes their relative limits inactive. */
    public GateRules(final List<GateRule> rules, final Thresholds validity, final List<String> requireSame) {
        this(rules, validity, requireSame, false);
    }
}
