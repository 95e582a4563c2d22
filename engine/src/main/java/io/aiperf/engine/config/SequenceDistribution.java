package io.aiperf.engine.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * (ISL, OSL) pairs drawn by probability (AIPerf's {@code --seq-dist}), in upstream 0.13's three text forms:
 * {@code "256,128:40;1024,512:60"}, each length optionally with a standard deviation ({@code "256|20,128|10:40"});
 * the bracket form {@code "[(256,128):40,(1024,512):60]"}; and JSON,
 * {@code {"pairs": [{"isl": 256, "isl_stddev": 20, "osl": 128, "osl_stddev": 10, "prob": 40}, ...]}}. The YAML
 * takes upstream's list form as well ({@link #fromEntries}). Probabilities are percentages that add up to 100, as
 * upstream requires (it does not normalise relative weights). Immutable.
 */
public record SequenceDistribution(List<Pair> pairs) {
    private static final String FIELD = "--seq-dist (benchmark.dataset.prompts.sequence_distribution)";
    private static final String NUMBER = "\\s*(\\d+(?:\\.\\d+)?|\\.\\d+)\\s*";
    private static final String LENGTH = "\\s*(\\d+)\\s*";
    private static final Pattern SEMICOLON = Pattern.compile(LENGTH + "(?:\\|" + NUMBER + ")?," + LENGTH
            + "(?:\\|" + NUMBER + ")?:" + NUMBER);
    private static final Pattern BRACKET = Pattern.compile("\\(" + LENGTH + "(?:\\|" + NUMBER + ")?," + LENGTH
            + "(?:\\|" + NUMBER + ")?\\)\\s*:" + NUMBER);
    /** Upstream's check of the sum: numpy's isclose(total, 100) with rtol and atol 1e-6. */
    private static final double SUM_TOLERANCE = 1e-6 + 1e-6 * 100;
    private static final Set<String> JSON_PAIR_KEYS = Set.of("isl", "isl_stddev", "osl", "osl_stddev", "prob");
    private static final Set<String> ENTRY_KEYS = Set.of("isl", "isl_stddev", "osl", "osl_stddev", "probability");

    /** One pair: lengths with their standard deviations, and its probability in percent. */
    public record Pair(double isl, double islStddev, double osl, double oslStddev, double percent) {
    }

    public SequenceDistribution {
        pairs = List.copyOf(pairs);
    }

    public static SequenceDistribution parse(final String text) {
        final String t = text == null ? "" : text.trim();
        final List<Pair> pairs = new ArrayList<>();
        if (t.startsWith("{")) {
            return fromJson(t, text);
        }
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
                    throw error(text, "cannot read '" + part.trim() + "'; expected ISL[|STDDEV],OSL[|STDDEV]:PERCENT "
                            + "with whole-number lengths");
                }
                pairs.add(pair(m, text));
            }
        }
        return checked(pairs, why -> error(text, why));
    }

    /** The JSON form: {@code {"pairs": [{"isl", "osl", "prob", "isl_stddev"?, "osl_stddev"?}, ...]}}. */
    private static SequenceDistribution fromJson(final String json, final String text) {
        final JsonNode root;
        try {
            root = new ObjectMapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw error(text, "not valid JSON: " + e.getOriginalMessage());
        }
        final JsonNode list = root.get("pairs");
        if (list == null || !list.isArray()) {
            throw error(text, "the JSON form needs a 'pairs' list");
        }
        final List<Pair> pairs = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            final JsonNode p = list.get(i);
            final String where = "pair " + i;
            requireKeys(p, JSON_PAIR_KEYS, "prob", where, text);
            pairs.add(pair(wholeLength(p.get("isl"), where + " isl", text), number(p.get("isl_stddev"), 0,
                    where + " isl_stddev", text), wholeLength(p.get("osl"), where + " osl", text),
                    number(p.get("osl_stddev"), 0, where + " osl_stddev", text),
                    number(p.get("prob"), -1, where + " prob", text), why -> error(text, where + ": " + why)));
        }
        return checked(pairs, why -> error(text, why));
    }

    /**
     * Upstream's YAML form: a list of {@code {isl, osl, probability}}, each length a whole number or
     * {@code {mean, stddev}}, or a number with {@code isl_stddev}/{@code osl_stddev}.
     *
     * @param field the key's path, for messages
     */
    public static SequenceDistribution fromEntries(final JsonNode entries, final String field) {
        final List<Pair> pairs = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            final JsonNode e = entries.get(i);
            final String where = field + "[" + i + "]";
            requireKeys(e, ENTRY_KEYS, "probability", where, null);
            final double[] isl = lengthEntry(e, "isl", where);
            final double[] osl = lengthEntry(e, "osl", where);
            pairs.add(pair(isl[0], isl[1], osl[0], osl[1], number(e.get("probability"), -1, where + ".probability",
                    null), why -> new ConfigException(where, why)));
        }
        return checked(pairs, why -> new ConfigException(field, why));
    }

    private static double[] lengthEntry(final JsonNode entry, final String key, final String where) {
        final JsonNode v = entry.get(key);
        final JsonNode shorthand = entry.get(key + "_stddev");
        if (v.isObject()) {
            final Iterator<String> names = v.fieldNames();
            while (names.hasNext()) {
                final String n = names.next();
                if (!n.equals("mean") && !n.equals("stddev")) {
                    throw new ConfigException(where + "." + key + "." + n, "only a normal {mean, stddev} is "
                            + "supported here");
                }
            }
            if (shorthand != null && !shorthand.isNull()) {
                throw new ConfigException(where + "." + key + "_stddev", "give the spread in " + key + " or in "
                        + key + "_stddev, not both");
            }
            // upstream samples around the mean's whole part
            return new double[] {Math.floor(number(v.get("mean"), -1, where + "." + key + ".mean", null)),
                number(v.get("stddev"), 0, where + "." + key + ".stddev", null)};
        }
        return new double[] {Math.floor(number(v, -1, where + "." + key, null)),
            number(shorthand, 0, where + "." + key + "_stddev", null)};
    }

    private static void requireKeys(final JsonNode p, final Set<String> allowed, final String probKey,
                                    final String where, final String text) {
        if (p == null || !p.isObject()) {
            throw fieldError(where, "expected a mapping", text);
        }
        for (final String required : List.of("isl", "osl", probKey)) {
            if (!p.has(required)) {
                throw fieldError(where, "'" + required + "' is missing", text);
            }
        }
        final Iterator<String> names = p.fieldNames();
        while (names.hasNext()) {
            final String n = names.next();
            if (!allowed.contains(n)) {
                throw fieldError(where, "unknown key '" + n + "'; known keys: " + new java.util.TreeSet<>(allowed),
                        text);
            }
        }
    }

    /** A number, {@code def} when absent (-1: required). */
    private static double number(final JsonNode v, final double def, final String where, final String text) {
        if (v == null || v.isNull()) {
            if (def < 0) {
                throw fieldError(where, "is missing", text);
            }
            return def;
        }
        if (!v.isNumber()) {
            throw fieldError(where, "expected a number, got " + v, text);
        }
        return v.doubleValue();
    }

    /** A length of the JSON form: upstream takes its whole part. */
    private static double wholeLength(final JsonNode v, final String where, final String text) {
        return Math.floor(number(v, -1, where, text));
    }

    private static ConfigException fieldError(final String where, final String why, final String text) {
        return text == null ? new ConfigException(where, why) : error(text, where + ": " + why);
    }

    private static SequenceDistribution checked(final List<Pair> pairs,
                                                final Function<String, ConfigException> fail) {
        if (pairs.isEmpty()) {
            throw fail.apply("no ISL,OSL:PERCENT pair given");
        }
        final double total = pairs.stream().mapToDouble(Pair::percent).sum();
        if (Math.abs(total - 100) > SUM_TOLERANCE) {
            throw fail.apply("the probabilities add up to " + num(total) + "%, not 100%: they are percentages, "
                    + "as upstream's; relative weights are not scaled");
        }
        return new SequenceDistribution(pairs);
    }

    private static Pair pair(final double isl, final double islStddev, final double osl, final double oslStddev,
                             final double percent, final Function<String, ConfigException> fail) {
        if (isl < 1 || osl < 1) {
            throw fail.apply("lengths must be 1 or more");
        }
        if (islStddev < 0 || oslStddev < 0) {
            throw fail.apply("a standard deviation must be 0 or more");
        }
        if (!(percent >= 0 && percent <= 100)) {
            throw fail.apply("a probability is a percentage from 0 to 100, got " + num(percent));
        }
        return new Pair(isl, islStddev, osl, oslStddev, percent);
    }

    private static Pair pair(final Matcher m, final String text) {
        return pair(Double.parseDouble(m.group(1)), m.group(2) == null ? 0 : Double.parseDouble(m.group(2)),
                Double.parseDouble(m.group(3)), m.group(4) == null ? 0 : Double.parseDouble(m.group(4)),
                Double.parseDouble(m.group(5)), why -> error(text, why));
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
