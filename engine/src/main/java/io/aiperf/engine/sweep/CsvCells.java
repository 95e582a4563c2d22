package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Cells of the aggregate CSVs as upstream AIPerf's writer prints them: quoted only when they hold a comma, a quote
 * or a line break; metadata values as Python prints them ({@code True}, {@code ['run_0001']},
 * {@code {'phases.profiling.concurrency': 1}}); numbers to a fixed number of decimals. Stateless.
 */
final class CsvCells {
    private CsvCells() {
    }

    static String cell(final String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** {@code confidence_level} as {@code Confidence Level}. */
    static String title(final String key) {
        final StringBuilder out = new StringBuilder(key.length());
        boolean start = true;
        for (final char c : key.replace('_', ' ').toCharArray()) {
            out.append(start ? Character.toUpperCase(c) : Character.toLowerCase(c));
            start = !Character.isLetter(c);
        }
        return out.toString();
    }

    /** A JSON value as Python's {@code str} prints the value it parses to. */
    static String pythonic(final JsonNode v) {
        if (v.isTextual()) {
            return v.asText();
        }
        return repr(v);
    }

    private static String repr(final JsonNode v) {
        if (v == null || v.isNull()) {
            return "None";
        }
        if (v.isBoolean()) {
            return v.asBoolean() ? "True" : "False";
        }
        if (v.isTextual()) {
            return "'" + v.asText().replace("\\", "\\\\").replace("'", "\\'") + "'";
        }
        if (v.isIntegralNumber()) {
            return v.asText();
        }
        if (v.isNumber()) {
            final double d = v.doubleValue();
            return Double.isNaN(d) ? "nan" : Double.isInfinite(d) ? (d > 0 ? "inf" : "-inf") : Double.toString(d);
        }
        final List<String> parts = new ArrayList<>();
        if (v.isArray()) {
            v.forEach(e -> parts.add(repr(e)));
            return "[" + String.join(", ", parts) + "]";
        }
        v.properties().forEach(e -> parts.add("'" + e.getKey() + "': " + repr(e.getValue())));
        return "{" + String.join(", ", parts) + "}";
    }

    /**
     * A number to {@code decimals} places; empty when absent or not finite, as upstream's sweep CSV leaves it. A
     * whole number given as an integer prints as one.
     */
    static String number(final JsonNode v, final int decimals) {
        if (v == null || !v.isNumber()) {
            return "";
        }
        if (v.isIntegralNumber()) {
            return v.asText();
        }
        final double d = v.doubleValue();
        return Double.isFinite(d) ? String.format(Locale.ROOT, "%." + decimals + "f", d) : "";
    }
}
