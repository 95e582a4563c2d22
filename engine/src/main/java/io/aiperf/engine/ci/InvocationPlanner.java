package io.aiperf.engine.ci;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Turns a {@link ProfileSpec} into the engine command. Stateless. */
public final class InvocationPlanner {
    /** The variable that carries the API key into the engine's environment (never its command line). */
    public static final String API_KEY_VARIABLE = "AIPERF_API_KEY";

    /**
     * The components of {@link ProfileSpec} that are the step's own settings or flags placed by hand. Every other
     * component is an engine option passed as the flag of its name ({@link #flag}): a step field named as the
     * engine's option field ({@code requestCount}, {@code --request-count}) needs no edit here.
     */
    private static final Set<String> STEP_SETTINGS = Set.of("id", "config", "model", "urls", "credentialsId",
            "artifactDir", "archive", "gate", "baseline", "unstableOnWarnings", "extraArgs", "cells", "compareWith",
            "jdk");

    private InvocationPlanner() {
    }

    /** The engine flag of a step field: its name in kebab case ({@code numProfileRuns}, {@code --num-profile-runs}). */
    public static String flag(final String field) {
        return "--" + field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /**
     * The engine flags of a record of step fields, in the record's order, leaving out {@code skip} and unset values:
     * a Boolean as {@code --flag=true|false} (the step's booleans are tri-state, unset meaning "as the config
     * says"), a list as the flag repeated, anything else as {@code --flag value}.
     */
    public static List<String> options(final Record fields, final Set<String> skip) {
        final List<String> argv = new ArrayList<>();
        for (final RecordComponent c : fields.getClass().getRecordComponents()) {
            if (skip.contains(c.getName())) {
                continue;
            }
            final Object value;
            try {
                value = c.getAccessor().invoke(fields);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(c.getName(), e);
            }
            if (value instanceof Boolean b) {
                flag(argv, flag(c.getName()), b);
            } else if (value instanceof List<?> items) {
                items.forEach(item -> add(argv, flag(c.getName()), item));
            } else {
                add(argv, flag(c.getName()), value);
            }
        }
        return argv;
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
        argv.addAll(options(spec, STEP_SETTINGS));
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
