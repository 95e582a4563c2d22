package io.aiperf.engine.search;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.SummaryCodec;
import java.util.List;
import java.util.Locale;

/**
 * One SLO of a capacity search, upstream AIPerf's {@code --search-sla tag:stat:op:threshold}: a statistic of a
 * metric in a cell's summary, compared with a threshold in the metric's display unit.
 *
 * @param op lt, le, gt or ge
 */
public record Sla(String metric, String stat, String op, double threshold) {
    private static final List<String> OPS = List.of("lt", "le", "gt", "ge");

    /** @throws ConfigException naming {@code field} and what is wrong */
    public static Sla parse(final String field, final String spec) {
        final String[] p = spec.trim().split(":");
        if (p.length != 4 || p[0].isBlank() || p[1].isBlank()) {
            throw new ConfigException(field, "expected metric:stat:op:threshold such as time_to_first_token:p95:lt:200, "
                    + "got '" + spec + "'");
        }
        final String op = p[2].toLowerCase(Locale.ROOT);
        if (!OPS.contains(op)) {
            throw new ConfigException(field, "the operator in '" + spec + "' must be one of lt, le, gt, ge");
        }
        final double threshold;
        try {
            threshold = Double.parseDouble(p[3]);
        } catch (NumberFormatException e) {
            throw new ConfigException(field, "the threshold in '" + spec + "' is not a number");
        }
        if (!Double.isFinite(threshold)) {
            throw new ConfigException(field, "the threshold in '" + spec + "' must be finite");
        }
        return new Sla(p[0], p[1].toLowerCase(Locale.ROOT), op, threshold);
    }

    /**
     * The share of a cell's requests that met every --goodput SLO: {@code good_request_count / request_count}
     * (the max-goodput-under-slo recipe's SLO, src-docs/capacity.md "Recipes").
     */
    public static final String ATTAINMENT = "slo_attainment";

    /** The statistic in a cell's summary ({@code profile_export_aiperf.json}), or NaN when it has none. */
    public double valueIn(final CellSummary summary) {
        if (metric.equals(ATTAINMENT)) {
            final double good = summary.stat("good_request_count", SummaryCodec.AVG);
            final double all = summary.stat("request_count", SummaryCodec.AVG);
            return all > 0 ? good / all : Double.NaN; // NaN stays NaN
        }
        return summary.stat(metric, stat);
    }

    /** Whether {@code value} meets it; a missing value (NaN) never does. */
    public boolean met(final double value) {
        if (Double.isNaN(value)) {
            return false;
        }
        return switch (op) {
            case "lt" -> value < threshold;
            case "le" -> value <= threshold;
            case "gt" -> value > threshold;
            default -> value >= threshold;
        };
    }

    /**
     * The headroom as a share of the threshold: positive when met (0.25 = a quarter below an upper limit),
     * negative when missed; NaN without a value or with a threshold of 0.
     */
    public double margin(final double value) {
        if (Double.isNaN(value) || threshold == 0) {
            return Double.NaN;
        }
        final double upper = (threshold - value) / Math.abs(threshold);
        return op.startsWith("l") ? upper : -upper;
    }

    /** As given on the command line: {@code metric:stat:op:threshold}. */
    public String spec() {
        return metric + ":" + stat + ":" + op + ":" + num(threshold);
    }

    public static String num(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
