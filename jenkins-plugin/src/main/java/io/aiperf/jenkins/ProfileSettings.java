package io.aiperf.jenkins;

import io.aiperf.engine.ci.ProfileSpec;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Every setting of an {@code aiperfProfile} call, declared once: the Pipeline step and the freestyle builder both
 * hold one and expose it field by field under the same names and types (an engine test keeps them, the help pages
 * and {@link ProfileSpec} in step). Each keeps its one-line accessors because Stapler and structs read
 * {@code @DataBoundSetter}s only on a class and its superclasses, and the two must extend Step and Builder.
 * Blanks are unset (null); an unset engine boolean leaves the config file's value.
 * Persisted with the freestyle job, so only JDK types.
 */
final class ProfileSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    String id;
    String config;
    String model;
    ArrayList<String> urls = new ArrayList<>();
    String endpointType;
    Boolean streaming;
    /** Numbers, so a Pipeline passes them unquoted (structs never turns a number into a String); sweeps: extraArgs. */
    Integer concurrency;
    Double requestRate;
    Integer requestCount;
    Double benchmarkDuration;
    Integer warmupRequestCount;
    Integer numProfileRuns;
    Boolean resetKvCache;
    Boolean serverProfiler;
    String credentialsId;
    String artifactDir = ProfileSpec.DEFAULT_ARTIFACT_DIR;
    boolean archive = true;
    String gate;
    String baseline;
    boolean unstableOnWarnings;
    ArrayList<String> extraArgs = new ArrayList<>();
    ArrayList<String> cells = new ArrayList<>();
    String compareWith;
    String jdk;
    /** The check's name, or null for AIPerf <id>. */
    String checksName;
    /** Whether to publish no check (checks-api). */
    boolean skipPublishingChecks;
    /** The job whose builds give the baselines (a full name, or relative to this job's folder); null: this job. */
    String referenceJob;

    /** The engine's view of these settings. */
    ProfileSpec toSpec() {
        return new ProfileSpec(id, config, model, List.copyOf(urls), endpointType, streaming, text(concurrency),
                text(requestRate), text(requestCount), text(benchmarkDuration), warmupRequestCount, numProfileRuns,
                resetKvCache, serverProfiler, credentialsId, artifactDir, archive, gate, baseline, unstableOnWarnings,
                List.copyOf(extraArgs), List.copyOf(cells), compareWith, jdk);
    }

    /** Settings saved before a field existed read it as null; give such fields their defaults. */
    private Object readResolve() {
        if (urls == null) {
            urls = new ArrayList<>();
        }
        if (extraArgs == null) {
            extraArgs = new ArrayList<>();
        }
        if (cells == null) {
            cells = new ArrayList<>();
        }
        if (artifactDir == null) {
            artifactDir = ProfileSpec.DEFAULT_ARTIFACT_DIR;
        }
        return this;
    }

    /** A number as the engine's flag value: {@code 2.0} as {@code 2}, never in exponent form. */
    static String text(final Number n) {
        if (n == null) {
            return null;
        }
        final double d = n.doubleValue();
        // NaN and infinities pass as they are, for the engine to reject with its own message
        return Double.isFinite(d) ? new BigDecimal(n.toString()).stripTrailingZeros().toPlainString() : n.toString();
    }

    static ArrayList<String> list(final List<String> values) {
        final ArrayList<String> out = new ArrayList<>();
        if (values != null) {
            values.stream().map(Blanks::toNull).filter(java.util.Objects::nonNull).forEach(out::add);
        }
        return out;
    }

    static String dir(final String dir) {
        final String d = Blanks.toNull(dir);
        return d == null ? ProfileSpec.DEFAULT_ARTIFACT_DIR : d;
    }
}
