package io.aiperf.engine.telemetry;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The unit of a scraped metric, as upstream AIPerf 0.13 names it in its server-metrics exports
 * (src-docs/server-metrics.md): a range in the help text ({@code (0-1)} is a ratio, {@code (0-100)} a percent) comes
 * first, then a unit the help text names ({@code (in MiB)}, {@code in seconds}), then the name's suffix
 * ({@code _seconds}, {@code _tokens_total}, {@code _perc}). Null when none says. Stateless.
 */
final class MetricUnits {
    private static final Map<String, String> SUFFIXES = suffixes();
    /** Longest suffix first, so {@code _tokens_total} wins over {@code _total}. */
    private static final List<String> SUFFIXES_LONGEST_FIRST = SUFFIXES.keySet().stream()
            .sorted(Comparator.comparingInt(String::length).reversed()).toList();
    private static final Map<String, String> TAGS = tags();
    private static final Pattern IN_TAG = Pattern.compile("\\(in\\s+([^\\s)]+)\\)");
    private static final Pattern RATIO_RANGE = Pattern.compile(
            "\\(0(?:\\.0)?\\s*(?:[-\u2013\u2014]+|to)\\s*1(?:\\.0)?\\)"
                    + "|\\b0(?:\\.0)?\\s*(?:[-\u2013\u2014]+|to)\\s*1(?:\\.0)?\\b"
                    + "|\\brange\\s+0(?:\\.0)?\\s*(?:[-\u2013\u2014]+|to)\\s*1(?:\\.0)?\\b"
                    + "|(?:\\b|\\()1(?:\\.0)?\\s*(?:means|is|equals?|==?)\\s*100\\s*(?:%|percent)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern PERCENT_RANGE = Pattern.compile(
            "\\(0(?:\\.0)?\\s*(?:[-\u2013\u2014]+|to)\\s*100(?:\\.0)?\\)"
                    + "|\\brange\\s+0\\s*(?:[-\u2013\u2014]+|to)\\s*100\\b"
                    + "|\\b0\\s*(?:[-\u2013\u2014]+|to)\\s*100\\s*%",
            Pattern.CASE_INSENSITIVE);
    /** Units said in words, first match wins. */
    private static final Map<Pattern, String> WORDS = words();

    private MetricUnits() {
    }

    /** The unit's name ({@code seconds}, {@code tokens}, {@code percent}), or null. */
    static String of(final String metric, final String help) {
        if (help != null && !help.isEmpty()) {
            if (RATIO_RANGE.matcher(help).find()) {
                return "ratio";
            }
            if (PERCENT_RANGE.matcher(help).find()) {
                return "percent";
            }
            final Matcher tag = IN_TAG.matcher(help);
            if (tag.find() && TAGS.containsKey(tag.group(1).strip())) {
                return TAGS.get(tag.group(1).strip());
            }
            for (final Map.Entry<Pattern, String> w : WORDS.entrySet()) {
                if (w.getKey().matcher(help).find()) {
                    return w.getValue();
                }
            }
        }
        final String name = metric.toLowerCase(java.util.Locale.ROOT);
        for (final String suffix : SUFFIXES_LONGEST_FIRST) {
            if (name.endsWith(suffix)) {
                return SUFFIXES.get(suffix);
            }
        }
        return name.contains("num_requests_") ? "requests" : null;
    }

    private static Map<String, String> suffixes() {
        final Map<String, String> m = new LinkedHashMap<>();
        put(m, "seconds", "_seconds", "_seconds_total");
        put(m, "milliseconds", "_milliseconds", "_ms", "_ms_total");
        put(m, "nanoseconds", "_nanoseconds", "_ns", "_ns_total");
        put(m, "bytes", "_bytes", "_bytes_total");
        put(m, "kilobytes", "_kilobytes");
        put(m, "megabytes", "_megabytes");
        put(m, "gigabytes", "_gigabytes");
        put(m, "count", "_total", "_count");
        put(m, "tokens", "_tokens", "_tokens_total");
        put(m, "requests", "_requests", "_requests_total", "request_success", "_reqs");
        put(m, "errors", "_errors", "_errors_total", "_error_count", "_error_count_total");
        put(m, "blocks", "_blocks", "_blocks_total", "_block_count");
        put(m, "gb/s", "_gb_s");
        put(m, "ratio", "_ratio");
        put(m, "percent", "_percent", "_perc");
        put(m, "celsius", "_celsius");
        put(m, "joule", "_joules");
        put(m, "watt", "_watts");
        return m;
    }

    private static Map<String, String> tags() {
        final Map<String, String> m = new LinkedHashMap<>();
        put(m, "megabytes", "MiB", "MB");
        put(m, "gigabytes", "GiB", "GB");
        put(m, "kilobytes", "KiB", "KB");
        put(m, "terabytes", "TB");
        put(m, "bytes", "B");
        put(m, "celsius", "C", "\u00b0C");
        put(m, "fahrenheit", "F", "\u00b0F");
        put(m, "kelvin", "K");
        put(m, "hertz", "Hz");
        put(m, "megahertz", "MHz");
        put(m, "gigahertz", "GHz");
        put(m, "watt", "W");
        put(m, "milliwatt", "mW");
        put(m, "joule", "J");
        put(m, "millijoule", "mJ");
        put(m, "megajoule", "MJ");
        put(m, "seconds", "s", "sec");
        put(m, "milliseconds", "ms");
        put(m, "nanoseconds", "ns");
        put(m, "microseconds", "us", "\u00b5s");
        put(m, "gb/s", "GB/s");
        put(m, "mb/s", "MB/s");
        put(m, "percent", "%", "percent");
        return m;
    }

    private static Map<Pattern, String> words() {
        final Map<Pattern, String> m = new LinkedHashMap<>();
        final String in = "(?:\\bin\\s+|\\()";
        final String end = "(?:\\b|\\))";
        m.put(word(in + "seconds?" + end), "seconds");
        m.put(word(in + "(?:milliseconds?|ms)" + end), "milliseconds");
        m.put(word(in + "(?:nanoseconds?|ns)" + end), "nanoseconds");
        m.put(word(in + "bytes?" + end), "bytes");
        m.put(word(in + "GB/s" + end), "gb/s");
        m.put(word(in + "MB/s" + end), "mb/s");
        m.put(word(in + "tokens?/s(?:ec(?:ond)?)?" + end), "tokens/s");
        m.put(word(in + "requests?/s(?:ec(?:ond)?)?" + end), "requests/s");
        m.put(word("\\bin\\s+tokens?\\b"), "tokens");
        return m;
    }

    private static Pattern word(final String regex) {
        return Pattern.compile(regex, Pattern.CASE_INSENSITIVE);
    }

    private static void put(final Map<String, String> m, final String unit, final String... keys) {
        for (final String k : keys) {
            m.put(k, unit);
        }
    }
}
