package io.aiperf.engine.telemetry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the Prometheus text exposition format (version 0.0.4), the format of vLLM's, SGLang's, TensorRT-LLM's and
 * llama.cpp's {@code /metrics}: {@code # TYPE} and {@code # HELP} lines, then {@code name{labels} value [timestamp]}.
 * Lines it cannot read are skipped, as Prometheus itself skips nothing but a scrape must never fail a benchmark.
 * Hand-written because Maven Central's Prometheus Java client only writes this format. Stateless.
 */
public final class PrometheusText {
    /**
     * The longest line read (real ones are under a few hundred characters, an info metric with many labels under
     * 2,000); longer ones are skipped, so no one sample, label value or help text is larger.
     */
    public static final int MAX_LINE = 4096;

    private PrometheusText() {
    }

    /** One sample: metric name (with any {@code _bucket}/{@code _sum}/{@code _count} suffix), labels, value. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    /**
     * A parsed page: its samples in order, the declared type and help of each metric family, and how many lines were
     * skipped for being longer than {@link #MAX_LINE}.
     */
    public record Page(List<Sample> samples, Map<String, String> types, Map<String, String> help, int overlong) {
        /**
         * The family a sample belongs to: its own name, or the histogram, summary or counter ({@code # TYPE x
         * counter} with samples {@code x_total}) it is a part of.
         */
        public String family(final String sampleName) {
            if (types.containsKey(sampleName)) {
                return sampleName;
            }
            for (final String suffix : new String[] {"_bucket", "_sum", "_count", "_created", "_total"}) {
                if (sampleName.endsWith(suffix)) {
                    final String base = sampleName.substring(0, sampleName.length() - suffix.length());
                    if (types.containsKey(base)) {
                        return base;
                    }
                }
            }
            return sampleName;
        }

        public String type(final String family) {
            return types.getOrDefault(family, "untyped");
        }
    }

    public static Page parse(final String text) {
        final List<Sample> samples = new ArrayList<>();
        final Map<String, String> types = new HashMap<>();
        final Map<String, String> help = new HashMap<>();
        int skipped = 0;
        for (final String raw : text.split("\n")) {
            if (raw.length() > MAX_LINE) {
                skipped++;
                continue;
            }
            final String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                final String[] parts = line.substring(1).strip().split("\\s+", 3);
                if (parts.length >= 3 && parts[0].equals("TYPE")) {
                    types.put(parts[1], parts[2].strip());
                } else if (parts.length >= 3 && parts[0].equals("HELP")) {
                    help.put(parts[1], parts[2].strip());
                }
                continue;
            }
            final Sample s = sample(line);
            if (s != null) {
                samples.add(s);
            }
        }
        return new Page(samples, types, help, skipped);
    }

    private static Sample sample(final String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && !Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        final String name = line.substring(0, i);
        if (name.isEmpty()) {
            return null;
        }
        final Map<String, String> labels = new TreeMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i = labels(line, i + 1, labels);
            if (i < 0) {
                return null;
            }
        }
        final String[] rest = line.substring(i).strip().split("\\s+");
        if (rest.length == 0 || rest[0].isEmpty()) {
            return null;
        }
        try {
            return new Sample(name, labels, value(rest[0]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Reads {@code k="v",...}} from {@code at}; returns the index after the closing brace, or -1. */
    private static int labels(final String line, final int at, final Map<String, String> out) {
        int i = at;
        while (i < line.length()) {
            while (i < line.length() && (line.charAt(i) == ',' || line.charAt(i) == ' ')) {
                i++;
            }
            if (i < line.length() && line.charAt(i) == '}') {
                return i + 1;
            }
            final int eq = line.indexOf('=', i);
            if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
                return -1;
            }
            final String key = line.substring(i, eq).strip();
            final StringBuilder value = new StringBuilder();
            int j = eq + 2;
            while (j < line.length() && line.charAt(j) != '"') {
                char c = line.charAt(j);
                if (c == '\\' && j + 1 < line.length()) {
                    j++;
                    c = line.charAt(j) == 'n' ? '\n' : line.charAt(j);
                }
                value.append(c);
                j++;
            }
            if (j >= line.length()) {
                return -1;
            }
            out.put(key, value.toString());
            i = j + 1;
        }
        return -1;
    }

    private static double value(final String text) {
        return switch (text) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }
}
