package io.aiperf.engine.run;

import io.aiperf.engine.metrics.MetricsSummary;
import io.aiperf.engine.record.ErrorDetails;
import java.util.Locale;

/**
 * Why a finished cell is no measurement (src-docs/failure-modes.md): no valid request at all, or more errors than
 * allowed. A benchmark of a dead server must never pass as completed.
 */
final class CellVerdict {
    private CellVerdict() {
    }

    /** Why the cell failed, or null when it measured. */
    static String failure(final long valid, final long errors, final double maxErrorRatePct,
                          final MetricsSummary metrics) {
        final String first = mostFrequentError(metrics);
        if (valid == 0) {
            return "no valid request: " + (errors == 0 ? "none completed" : "all " + errors + " failed") + first;
        }
        final double ratePct = 100.0 * errors / (valid + errors);
        if (ratePct > maxErrorRatePct) {
            return String.format(Locale.ROOT, "error rate %.1f%% (%d of %d requests) is above --max-error-rate %s%%%s",
                    ratePct, errors, valid + errors, plain(maxErrorRatePct), first);
        }
        return null;
    }

    /** "; most frequent error: ..." to end a failure's reason with, or "" when no request failed. */
    static String mostFrequentError(final MetricsSummary metrics) {
        return metrics.errorSummary().isEmpty() ? "" : "; most frequent error: "
                + describe(metrics.errorSummary().get(0).details());
    }

    private static String describe(final ErrorDetails d) {
        if (d.code() == null) {
            return d.type();
        }
        final String hint = d.code() == 401 || d.code() == 403 ? " (check the API key: --api-key or --api-key-env)" : "";
        return "HTTP " + d.code() + " " + d.type() + hint;
    }

    private static String plain(final double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
