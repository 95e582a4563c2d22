package io.aiperf.engine.gate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.summary.GateResultCodec;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The gate's three reports: {@code gate_result.json} (everything), {@code gate_junit.xml} (one test case per
 * rule and cell, for Jenkins' junit step and other CI), and {@code gate_summary.md} (a table to read in ten
 * seconds). Stateless.
 */
public final class GateReports {
    public static final String JSON_FILE = ExportFiles.GATE_JSON;
    public static final String JUNIT_FILE = ExportFiles.GATE_JUNIT;
    public static final String MARKDOWN_FILE = ExportFiles.GATE_MARKDOWN;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private GateReports() {
    }

    public static byte[] json(final GateResult result) {
        return json(result, java.util.List.of(), null);
    }

    /**
     * @param baselines the baseline sources as given, recorded so that a report of the candidate can draw them
     * @param candidate the candidate source, or null
     */
    public static byte[] json(final GateResult result, final java.util.List<java.nio.file.Path> baselines,
                              final java.nio.file.Path candidate) {
        try {
            return JSON.writeValueAsBytes(tree(result, baselines, candidate));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code gate_result.json} as a tree: what {@link #json} writes, for a reader in the same process. */
    public static ObjectNode tree(final GateResult result, final java.util.List<java.nio.file.Path> baselines,
                                  final java.nio.file.Path candidate) {
        final ObjectNode root = JSON.createObjectNode();
        root.put(GateResultCodec.VERDICT, result.verdict().wireName());
        root.put(GateResultCodec.EXIT_CODE, result.exitCode());
        if (candidate != null) {
            root.put(GateResultCodec.CANDIDATE, candidate.toAbsolutePath().normalize().toString());
            final ArrayNode b = root.putArray(GateResultCodec.BASELINES);
            baselines.forEach(p -> b.add(p.toAbsolutePath().normalize().toString()));
        }
        final ArrayNode rules = root.putArray(GateResultCodec.RULES);
        for (final RuleResult r : result.results()) {
            final ObjectNode o = rules.addObject();
            o.put(GateResultCodec.METRIC, r.rule().metric());
            o.put(GateResultCodec.STAT, r.rule().stat());
            o.put(GateResultCodec.CELL, r.cell());
            o.put(GateResultCodec.UNIT, r.unit());
            o.put(GateResultCodec.DIRECTION, r.rule().direction().name().toLowerCase(Locale.ROOT));
            o.put(GateResultCodec.CRITICALITY, r.rule().criticality().name().toLowerCase(Locale.ROOT));
            number(o, GateResultCodec.BASELINE, r.baseline());
            o.put(GateResultCodec.BASELINE_TRIALS, r.baselineTrials());
            number(o, GateResultCodec.CANDIDATE, r.candidate());
            o.put(GateResultCodec.CANDIDATE_TRIALS, r.candidateTrials());
            number(o, GateResultCodec.DELTA, r.delta());
            number(o, GateResultCodec.DELTA_PCT, r.deltaPct());
            o.put(GateResultCodec.LIMIT, r.rule().limitText());
            number(o, GateResultCodec.LIMIT_VALUE, r.limitValue());
            number(o, GateResultCodec.CHANGE_CI_LOW_PCT, r.changeLowPct());
            number(o, GateResultCodec.CHANGE_CI_HIGH_PCT, r.changeHighPct());
            number(o, GateResultCodec.NOISE_FLOOR, r.rule().noiseFloor() == null ? Double.NaN : r.rule().noiseFloor());
            number(o, GateResultCodec.P_VALUE, r.pValue());
            number(o, GateResultCodec.EFFECT_SIZE, r.effectSize());
            o.put(GateResultCodec.STATUS, r.status().wireName());
            o.put(GateResultCodec.MESSAGE, r.message());
        }
        return root;
    }

    private static void number(final ObjectNode o, final String key, final double v) {
        if (Double.isFinite(v)) {
            o.put(key, v);
        } else {
            o.putNull(key);
        }
    }

    /**
     * JUnit XML in the common schema: failed and unstable rules are failures, inconclusive ones errors (the
     * measurement, not the server, is at fault), inactive ones are skipped.
     */
    public static byte[] junit(final GateResult result) {
        int failures = 0;
        int errors = 0;
        int skipped = 0;
        for (final RuleResult r : result.results()) {
            if (r.status() == Status.FAILED || r.status() == Status.UNSTABLE) {
                failures++;
            } else if (r.status() == Status.INCONCLUSIVE) {
                errors++;
            } else if (r.status() == Status.INACTIVE) {
                skipped++;
            }
        }
        final int tests = result.results().size();
        final StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append(String.format(Locale.ROOT,
                "<testsuites name=\"aiperf-gate\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"0\">%n",
                tests, failures, errors, skipped));
        sb.append(String.format(Locale.ROOT,
                "  <testsuite name=\"aiperf.gate\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"0\">%n",
                tests, failures, errors, skipped));
        for (final RuleResult r : result.results()) {
            sb.append("    <testcase classname=\"").append(xml("aiperf.gate." + r.cell())).append("\" name=\"")
                    .append(xml(r.rule().title() + " (" + r.rule().limitText() + ")")).append("\" time=\"0\"");
            switch (r.status()) {
                case FAILED, UNSTABLE -> sb.append(">\n      <failure message=\"").append(xml(r.message()))
                        .append("\" type=\"").append(r.status().wireName()).append("\">")
                        .append(xml(r.message())).append("</failure>\n    </testcase>\n");
                case INCONCLUSIVE -> sb.append(">\n      <error message=\"").append(xml(r.message()))
                        .append("\" type=\"inconclusive\">").append(xml(r.message())).append("</error>\n    </testcase>\n");
                case INACTIVE -> sb.append(">\n      <skipped message=\"").append(xml(r.message()))
                        .append("\"/>\n    </testcase>\n");
                default -> sb.append(">\n      <system-out>").append(xml(r.message()))
                        .append("</system-out>\n    </testcase>\n");
            }
        }
        sb.append("  </testsuite>\n</testsuites>\n");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] markdown(final GateResult result) {
        final StringBuilder sb = new StringBuilder();
        sb.append("# Performance gate: ").append(result.verdict().wireName().toUpperCase(Locale.ROOT)).append("\n\n");
        sb.append("| status | cell | rule | baseline | candidate | change | limit | p |\n");
        sb.append("|---|---|---|---|---|---|---|---|\n");
        for (final RuleResult r : result.results()) {
            sb.append("| ").append(icon(r.status())).append(' ').append(r.status().wireName())
                    .append(" | ").append(r.cell())
                    .append(" | ").append(r.rule().title())
                    .append(" | ").append(GateEvaluator.fmt(r.baseline(), r.unit()))
                    .append(" | ").append(GateEvaluator.fmt(r.candidate(), r.unit()))
                    .append(" | ").append(Double.isNaN(r.deltaPct()) ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", r.deltaPct()))
                    .append(" | ").append(r.rule().limitText(r.unit()))
                    .append(" | ").append(Double.isNaN(r.pValue()) ? "" : String.format(Locale.ROOT, "%.3g", r.pValue()))
                    .append(" |\n");
        }
        sb.append('\n');
        for (final RuleResult r : result.results()) {
            if (r.status() != Status.PASSED) {
                sb.append("- **").append(r.status().wireName()).append("** ").append(r.cell()).append(": ")
                        .append(r.message().replace("|", "\\|")).append('\n');
            }
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String icon(final Status s) {
        return switch (s) {
            case PASSED -> "✅";
            case INACTIVE -> "⚪";
            case UNSTABLE -> "🟡";
            case INCONCLUSIVE -> "❔";
            case FAILED -> "❌";
        };
    }

    static String xml(final String s) {
        final StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> {
                    if (c >= 0x20 || c == '\n' || c == '\t') {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
