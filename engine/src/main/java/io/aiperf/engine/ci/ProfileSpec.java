package io.aiperf.engine.ci;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a CI step asks for, as plain values. The Jenkins step and builder have one field per component, with the
 * same name (a test keeps them in step). Nulls are unset. Secrets are never values here: {@code credentialsId}
 * only names the secret the CI resolves and hands to the engine through the environment.
 *
 * @param id the call's name within a build ({@link CallFolders#DEFAULT_ID} when null): its archive folder, build-page
 *           entry, baselines and trend are its own, so several calls in one build never share a file
 * @param config a YAML config file, relative to the workspace, or null
 * @param urls base URLs; several are round-robin
 * @param credentialsId the CI's id of the API key secret, or null for none
 * @param artifactDir the base folder of the calls' exports, relative to the workspace; each call writes to its own
 *                    folder under it ({@link CallFolders#exportDir}), emptied before it runs
 * @param archive whether to archive the exports
 * @param gate a gate rules file, or null for no gate
 * @param baseline which earlier build to compare with: {@link BaselineChoice} syntax; null is previousSuccessful
 * @param unstableOnWarnings whether a warning (such as a failed profiler stop) makes the build UNSTABLE
 * @param extraArgs further engine flags, passed through verbatim (never secrets)
 * @param cells cell ids to run (from {@code config expand --cells}); empty runs them all
 * @param compareWith the URL of the build to compare against (production), or null: the engine then runs
 *                    {@code aiperf compare} with this URL as A and the step's one URL as B, and gates B against A
 * @param jdk the name of a JDK tool installation to run the engine with, or null to take Java from the step's
 *            environment ({@link JavaLocator})
 */
public record ProfileSpec(String id, String config, String model, List<String> urls, String endpointType, Boolean streaming,
                          String concurrency, String requestRate, String requestCount, String benchmarkDuration,
                          Integer warmupRequestCount, Integer numProfileRuns, Boolean resetKvCache,
                          Boolean serverProfiler, String credentialsId, String artifactDir, boolean archive,
                          String gate, String baseline, boolean unstableOnWarnings, List<String> extraArgs,
                          List<String> cells, String compareWith, String jdk) {
    /** Where the step's engine writes unless told otherwise. */
    public static final String DEFAULT_ARTIFACT_DIR = "aiperf-results";
    private static final Pattern WORD = Pattern.compile("'([^']*)'|\"([^\"]*)\"|(\\S+)");

    /**
     * A spec from a form's text fields, keyed by component name (a freestyle build step stores text): blanks are
     * unset, {@code urls}, {@code extraArgs} and {@code cells} are split into {@link #words}, the engine's booleans
     * are tri-state ({@code true}, {@code false}, blank for "as the config file says", so only what the user set
     * reaches the command line), {@code archive} defaults to true.
     *
     * @throws IllegalArgumentException naming the field when a number is not a whole number
     */
    public static ProfileSpec fromForm(final Map<String, String> form) {
        return new ProfileSpec(text(form, "id"), text(form, "config"), text(form, "model"), words(form.get("urls")),
                text(form, "endpointType"), bool(form, "streaming"), text(form, "concurrency"),
                text(form, "requestRate"), text(form, "requestCount"), text(form, "benchmarkDuration"),
                integer(form, "warmupRequestCount"), integer(form, "numProfileRuns"), bool(form, "resetKvCache"),
                bool(form, "serverProfiler"), text(form, "credentialsId"), text(form, "artifactDir"),
                !"false".equalsIgnoreCase(text(form, "archive")), text(form, "gate"), text(form, "baseline"),
                "true".equalsIgnoreCase(text(form, "unstableOnWarnings")), words(form.get("extraArgs")),
                words(form.get("cells")), text(form, "compareWith"), text(form, "jdk"));
    }

    private static String text(final Map<String, String> form, final String field) {
        final String v = form.get(field);
        return v == null || v.isBlank() ? null : v.trim();
    }

    private static Boolean bool(final Map<String, String> form, final String field) {
        final String v = text(form, field);
        if (v == null) {
            return null;
        }
        if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(field + ": must be true, false or blank (from the config file), not '"
                    + v + "'");
        }
        return Boolean.valueOf(v);
    }

    private static Integer integer(final Map<String, String> form, final String field) {
        final String v = text(form, field);
        if (v == null) {
            return null;
        }
        try {
            return Integer.valueOf(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + ": must be a whole number, not '" + v + "'");
        }
    }

    /** Field-keyed problems, empty when the spec can run (also what a form's field check shows). */
    public Map<String, String> validate() {
        final Map<String, String> problems = new LinkedHashMap<>();
        final String idProblem = CallFolders.idProblem(id);
        if (idProblem != null) {
            problems.put("id", idProblem);
        }
        if (isBlank(config) && isBlank(model)) {
            problems.put("model", "a model is required unless a config file is given");
        }
        if (isBlank(config) && (urls == null || urls.isEmpty())) {
            problems.put("urls", "at least one URL is required unless a config file is given");
        }
        final String dirProblem = artifactDirProblem(artifactDir);
        if (dirProblem != null) {
            problems.put("artifactDir", dirProblem);
        }
        if (warmupRequestCount != null && warmupRequestCount <= 0) {
            problems.put("warmupRequestCount", "Input should be greater than 0 (omit it for no warmup)");
        }
        if (numProfileRuns != null && (numProfileRuns < 1 || numProfileRuns > 10)) {
            problems.put("numProfileRuns", "must be between 1 and 10");
        }
        if (extraArgs != null && extraArgs.stream().anyMatch(a -> a.startsWith("--api-key") && !a.startsWith("--api-key-env"))) {
            problems.put("extraArgs", "pass the API key through credentialsId, never as an argument");
        }
        final String placed = extraArgs == null ? null : extraArgs.stream().filter(ProfileSpec::placedByTheStep)
                .findFirst().orElse(null);
        if (placed != null) {
            problems.put("extraArgs", placed + " is set by the step (use artifactDir, cells, gate or baseline), so the"
                    + " call's folder, archive and gate stay its own");
        }
        if (!isBlank(baseline)) {
            if (isBlank(gate)) {
                problems.put("baseline", "a baseline is only used with a gate rules file");
            } else {
                final String baselineProblem = BaselineChoice.problem(baseline);
                if (baselineProblem != null) {
                    problems.put("baseline", baselineProblem);
                }
            }
        }
        if (cells != null && cells.stream().anyMatch(ProfileSpec::isBlank)) {
            problems.put("cells", "cell ids must not be blank");
        }
        if (!isBlank(compareWith)) {
            if (urls == null || urls.size() != 1) {
                problems.put("compareWith", "comparing needs exactly one URL, the candidate's (B)");
            } else if (!compareWith.startsWith("http://") && !compareWith.startsWith("https://")) {
                problems.put("compareWith", "expected an http:// or https:// URL");
            }
            if (cells != null && !cells.isEmpty()) {
                problems.put("compareWith", "a comparison runs its own pairs of cells; leave cells empty");
            }
        }
        return problems;
    }

    /** The flags the step places itself; given again in extraArgs they would move the exports or the gate. */
    private static final List<String> STEP_FLAGS = List.of("--artifact-dir", "--output-artifact-dir", "--cell", "--gate",
            "--baseline", "--pid-file");

    private static boolean placedByTheStep(final String arg) {
        return STEP_FLAGS.stream().anyMatch(f -> arg.equals(f) || arg.startsWith(f + "="));
    }

    /** Why a directory cannot hold archived exports, or null: it must stay inside the workspace. */
    public static String artifactDirProblem(final String dir) {
        if (isBlank(dir)) {
            return "an artifact directory is required, so the exports can be archived";
        }
        final String d = dir.replace('\\', '/');
        if (d.startsWith("/") || d.matches("^[A-Za-z]:.*") || List.of(d.split("/")).contains("..")) {
            return "must be a path inside the workspace (relative, without ..), so the exports can be archived";
        }
        return null;
    }

    /**
     * Splits a form's text into words: whitespace separates, single or double quotes keep spaces
     * ({@code --extra-inputs 'a b'}). The freestyle form's one-line fields use it.
     */
    public static List<String> words(final String text) {
        final List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        final Matcher m = WORD.matcher(text);
        while (m.find()) {
            out.add(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3));
        }
        return out;
    }

    /** The call's id, {@link CallFolders#DEFAULT_ID} when unset. */
    public String callId() {
        return InvocationPlanner.callId(id);
    }

    /** Where this call archives and the engine writes. */
    public CallFolders folders() {
        return CallFolders.of(callId(), cells);
    }

    static boolean isBlank(final String s) {
        return s == null || s.isBlank();
    }
}
