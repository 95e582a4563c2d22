package io.aiperf.engine.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * (ISL, OSL) pairs drawn by probability (AIPerf's {@code --seq-dist}): {@code "256,128:40;1024,512:60"}, each
 * length optionally with a standard deviation ({@code "256|20,128|10:40"}), or the bracket form
 * {@code "[(256,128):40,(1024,512):60]"}. Probabilities are percentages summing to 100. Immutable.
 */
public record SequenceDistribution(List<Pair> pairs) {
    private static final String FIELD = "--seq-dist (benchmark.dataset.prompts.sequence_distribution)";
    private static final String NUMBER = "\\s*(\\d+(?:\\.\\d+)?)\\s*";
    private static final Pattern SEMICOLON = Pattern.compile(NUMBER + "(?:\\|" + NUMBER + ")?," + NUMBER
            + "(?:\\|" + NUMBER + ")?:" + NUMBER);
    private static final Pattern BRACKET = Pattern.compile("\\(" + NUMBER + "(?:\\|" + NUMBER + ")?," + NUMBER
            + "(?:\\|" + NUMBER + ")?\\)\\s*:" + NUMBER);

    /** One pair: lengths with their standard deviations, and its probability in percent. */
    public record Pair(double isl, double islStddev, double osl, double oslStddev, double percent) {
    }

    public SequenceDistribution {
        pairs = List.copyOf(pairs);
    }

    public static SequenceDistribution parse(final String text) {
        final String t = text == null ? "" : text.trim();
        final List<Pair> pairs = new ArrayList<>();
        if (t.startsWith("[")) {
            if (!t.endsWith("]")) {
                throw error(text, "the bracket form must end with ']'");
            }
            final String body = t.substring(1, t.length() - 1).trim();
            final Matcher m = BRACKET.matcher(body);
            int at = 0;
            while (m.find()) {
                if (!body.substring(at, m.start()).replace(",", "").isBlank()) {
                    throw error(text, "cannot read '" + body.substring(at, m.start()).trim() + "'");
                }
                pairs.add(pair(m, text));
                at = m.end();
            }
            if (!body.substring(at).isBlank()) {
                throw error(text, "cannot read '" + body.substring(at).trim() + "'");
            }
        } else {
            for (final String part : t.split(";")) {
                if (part.isBlank()) {
                    continue;
                }
                final Matcher m = SEMICOLON.matcher(part);
                if (!m.matches()) {
                    throw error(text, "cannot read '" + part.trim() + "'; expected ISL,OSL:PERCENT");
                }
                pairs.add(pair(m, text));
            }
        }
        if (pairs.isEmpty()) {
            throw error(text, "no ISL,OSL:PERCENT pair given");
        }
        final double total = pairs.stream().mapToDouble(Pair::percent).sum();
        if (Math.abs(total - 100) > 1e-6) {
            throw error(text, "the probabilities add up to " + total + "%, not 100%");
        }
        return new SequenceDistribution(pairs);
    }

    private static Pair pair(final Matcher m, final String text) {
        final double isl = Double.parseDouble(m.group(1));
        final double osl = Double.parseDouble(m.group(3));
        if (isl < 1 || osl < 1) {
            throw error(text, "lengths must be 1 or more");
        }
        return new Pair(isl, m.group(2) == null ? 0 : Double.parseDouble(m.group(2)), osl,
                m.group(4) == null ? 0 : Double.parseDouble(m.group(4)), Double.parseDouble(m.group(5)));
    }

    private static ConfigException error(final String text, final String why) {
        return new ConfigException(FIELD, "'" + text + "': " + why);
    }

    /** Draws a pair, then each length from Normal(length, stddev), rounded, at least 1: {isl, osl}. */
    public int[] draw(final Random random) {
        double u = random.nextDouble() * 100;
        Pair chosen = pairs.get(pairs.size() - 1);
        for (final Pair p : pairs) {
            if (u < p.percent()) {
                chosen = p;
                break;
            }
            u -= p.percent();
        }
        return new int[] {
            Math.max(1, (int) Math.round(chosen.isl() + random.nextGaussian() * chosen.islStddev())),
            Math.max(1, (int) Math.round(chosen.osl() + random.nextGaussian() * chosen.oslStddev()))};
    }

    /** The form the user wrote, normalised, for the config echo. */
    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder();
        for (final Pair p : pairs) {
            if (sb.length() > 0) {
                sb.append(';');
            }
            sb.append(num(p.isl())).append(p.islStddev() > 0 ? "|" + num(p.islStddev()) : "").append(',')
                    .append(num(p.osl())).append(p.oslStddev() > 0 ? "|" + num(p.oslStddev()) : "").append(':')
                    .append(num(p.percent()));
        }
        return sb.toString();
    }

    private static String num(final double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
