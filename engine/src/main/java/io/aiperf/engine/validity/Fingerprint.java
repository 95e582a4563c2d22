package io.aiperf.engine.validity;

import io.aiperf.engine.summary.CellSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The environment fingerprint of a run, as its summary records it ({@code environment.fingerprint}), and the fields
 * two runs differ in. A gate that compares a run against a baseline from another model, tokenizer or server is
 * comparing the environments, not the releases. Stateless.
 */
public final class Fingerprint {
    /** Every field a rules file may name in {@code require_same}. */
    public static final List<String> FIELDS = List.of("model", "tokenizer", "config_hash", "served_model", "server",
            "server_version", "gpu", "engine_version", "engine_commit", "java", "client_cores", "protocol");
    /**
     * What a gate compares when its rules file names no {@code require_same}: the HTTP protocol, since an HTTP/1.1
     * baseline and an HTTP/2 candidate measure different clients. A run that recorded none (an older engine) is
     * not held against it.
     */
    public static final List<String> DEFAULT_REQUIRED = List.of("protocol");

    private Fingerprint() {
    }

    /** The fingerprint fields of a summary (absent ones are null). */
    public static Map<String, String> of(final CellSummary summary) {
        final Map<String, String> out = new LinkedHashMap<>();
        final Map<String, String> f = summary.environment().fingerprint();
        for (final String field : FIELDS) {
            out.put(field, f.get(field));
        }
        return out;
    }

    /** {@link #DEFAULT_REQUIRED} that both runs recorded and that differ, as in {@link #differences}. */
    public static List<String> defaultDifferences(final Map<String, String> baseline,
                                                  final Map<String, String> candidate) {
        final List<String> known = new ArrayList<>();
        for (final String field : DEFAULT_REQUIRED) {
            if (baseline.get(field) != null && candidate.get(field) != null) {
                known.add(field);
            }
        }
        return differences(baseline, candidate, known);
    }

    /** The fields among {@code required} whose values differ, as "field (baseline value vs candidate value)". */
    public static List<String> differences(final Map<String, String> baseline, final Map<String, String> candidate,
                                           final List<String> required) {
        final List<String> out = new ArrayList<>();
        for (final String field : required) {
            final String b = baseline.get(field);
            final String c = candidate.get(field);
            if (!Objects.equals(b, c)) {
                out.add(field + " (" + (b == null ? "unknown" : b) + " vs " + (c == null ? "unknown" : c) + ")");
            }
        }
        return out;
    }
}
