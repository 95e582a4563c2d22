package io.aiperf.engine.ci;

import java.util.ArrayList;
import java.util.List;

/** Turns a {@link ProfileSpec} into the engine command. Stateless. */
public final class InvocationPlanner {
    /** The variable that carries the API key into the engine's environment (never its command line). */
    public static final String API_KEY_VARIABLE = "AIPERF_API_KEY";

    private InvocationPlanner() {
    }

    /**
     * @param launcher the engine command prefix, e.g. {@code ["java", "-jar", "/path/aiperf.jar"]}
     * @param baselines baseline run directories for the gate (from {@link BaselineSelector}), empty for none
     * @throws IllegalArgumentException with the spec's problems when it is invalid
     */
    public static EngineInvocation plan(final ProfileSpec spec, final List<String> launcher, final List<String> baselines) {
        return plan(spec, launcher, baselines, null);
    }

    /**
     * @param label the run's name in trends ({@code profile --label}), e.g. {@code #42} for build 42, or null; left
     *              out for a comparison and when the extra arguments set one
     */
    public static EngineInvocation plan(final ProfileSpec spec, final List<String> launcher, final List<String> baselines,
                                        final String label) {
        final java.util.Map<String, String> problems = spec.validate();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid aiperfProfile settings: " + problems);
        }
        final List<String> argv = new ArrayList<>(launcher);
        final boolean compare = !ProfileSpec.isBlank(spec.compareWith());
        argv.add(compare ? "compare" : "profile");
        add(argv, "--config", spec.config());
        add(argv, "--model", spec.model());
        if (compare) {
            // A is the build compared against, B the candidate; the cells alternate between them (src-docs/compare.md).
            add(argv, "--a", spec.compareWith());
            add(argv, "--b", spec.urls().get(0));
        } else if (spec.urls() != null) {
            spec.urls().forEach(u -> add(argv, "--url", u));
        }
        add(argv, "--endpoint-type", spec.endpointType());
        flag(argv, "--streaming", spec.streaming());
        add(argv, "--concurrency", spec.concurrency());
        add(argv, "--request-rate", spec.requestRate());
        add(argv, "--request-count", spec.requestCount());
        add(argv, "--benchmark-duration", spec.benchmarkDuration());
        add(argv, "--warmup-request-count", spec.warmupRequestCount());
        add(argv, "--num-profile-runs", spec.numProfileRuns());
        flag(argv, "--reset-kv-cache", spec.resetKvCache());
        flag(argv, "--server-profiler", spec.serverProfiler());
        final String keyVariable = ProfileSpec.isBlank(spec.credentialsId()) ? null : API_KEY_VARIABLE;
        add(argv, "--api-key-env", keyVariable);
        final String exportDir = spec.folders().exportDir(spec.artifactDir());
        add(argv, "--artifact-dir", exportDir);
        if (spec.cells() != null) {
            spec.cells().forEach(c -> add(argv, "--cell", c));
        }
        if (!ProfileSpec.isBlank(spec.gate())) {
            add(argv, "--gate", spec.gate());
            if (!compare) { // a comparison's baseline is side A
                baselines.forEach(b -> add(argv, "--baseline", b));
            }
        }
        if (label != null && !compare && (spec.extraArgs() == null || spec.extraArgs().stream()
                .noneMatch(a -> a.equals("--label") || a.startsWith("--label=")))) {
            add(argv, "--label", label);
        }
        if (spec.extraArgs() != null) {
            argv.addAll(spec.extraArgs());
        }
        return new EngineInvocation(List.copyOf(argv), keyVariable, exportDir);
    }

    /**
     * The command that merges cells run apart and gates the result ({@code aiperfAggregate}); it writes to the
     * id's {@link CallFolders#aggregate} folder under the artifact directory.
     *
     * @param inputs directories holding the cells
     * @param gate a rules file, or null
     */
    public static EngineInvocation aggregate(final List<String> launcher, final List<String> inputs,
                                             final String artifactDir, final String id, final String gate,
                                             final List<String> baselines) {
        final String dirProblem = ProfileSpec.artifactDirProblem(artifactDir);
        final String idProblem = CallFolders.idProblem(id);
        if (dirProblem != null || idProblem != null) {
            throw new IllegalArgumentException("invalid aiperfAggregate settings: {"
                    + (dirProblem != null ? "artifactDir=" + dirProblem : "id=" + idProblem) + "}");
        }
        final String outputDir = CallFolders.aggregate(callId(id)).exportDir(artifactDir);
        final List<String> argv = new ArrayList<>(launcher);
        argv.add("aggregate");
        argv.addAll(inputs);
        add(argv, "--output-dir", outputDir);
        if (!ProfileSpec.isBlank(gate)) {
            add(argv, "--gate", gate);
            baselines.forEach(b -> add(argv, "--baseline", b));
        }
        return new EngineInvocation(List.copyOf(argv), null, outputDir);
    }

    /**
     * The command that gates exports produced elsewhere ({@code aiperfGate}), once they were copied to the call's
     * folder: the gate's files land next to them.
     *
     * @param candidateDir the call's folder holding the exports
     */
    public static List<String> gate(final List<String> launcher, final String rules, final String candidateDir,
                                    final List<String> baselines) {
        final List<String> argv = new ArrayList<>(launcher);
        argv.add("gate");
        add(argv, "--rules", rules);
        add(argv, "--candidate", candidateDir);
        baselines.forEach(b -> add(argv, "--baseline", b));
        return List.copyOf(argv);
    }

    /** A call's id, {@link CallFolders#DEFAULT_ID} when unset. */
    public static String callId(final String id) {
        return ProfileSpec.isBlank(id) ? CallFolders.DEFAULT_ID : id.trim();
    }

    /** The command that lists a config's cell ids, one per line on stdout ({@code aiperfCells}). */
    public static List<String> cells(final List<String> launcher, final String config) {
        if (ProfileSpec.isBlank(config)) {
            throw new IllegalArgumentException("invalid aiperfCells settings: {config=a config file is required}");
        }
        final List<String> argv = new ArrayList<>(launcher);
        argv.addAll(List.of("config", "expand", "--config", config, "--cells"));
        return List.copyOf(argv);
    }

    /** The engine's output of {@link #cells}, as ids. */
    public static List<String> parseCells(final String stdout) {
        return stdout.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    private static void flag(final List<String> argv, final String flag, final Boolean value) {
        if (value != null) {
            argv.add(flag + "=" + value);
        }
    }

    private static void add(final List<String> argv, final String flag, final Object value) {
        if (value != null && !(value instanceof String s && s.isBlank())) {
            argv.add(flag);
            argv.add(String.valueOf(value));
        }
    }
}
