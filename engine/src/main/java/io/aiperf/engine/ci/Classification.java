package io.aiperf.engine.ci;

import java.util.List;

/**
 * A verdict with the reasons to show on the build page; {@code warnings} are shown even when the verdict
 * stays SUCCESS (for example a failed profiler stop).
 */
public record Classification(Verdict verdict, List<String> reasons, List<String> warnings) {
}
