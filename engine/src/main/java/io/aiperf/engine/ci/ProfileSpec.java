package io.aiperf.engine.ci;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a CI step asks for, as plain values (the Jenkins step and builder map their fields 1:1 onto this).
 * Nulls are unset. Secrets are never values here: {@code apiKeyVariable} names the environment variable that
 * holds the key.
 *
 * @param config a YAML config file, relative to the workspace, or null
 * @param urls base URLs; several are round-robin
 * @param extraArgs further engine flags, passed through verbatim (never secrets)
 * @param gateRules a gate rules file, or null for no gate
 * @param baselines baseline run directories chosen by {@link BaselineSelector}
 */
public record ProfileSpec(String config, String model, List<String> urls, String endpointType, Boolean streaming,
                          String concurrency, String requestRate, String requestCount, String benchmarkDuration,
                          Integer warmupRequestCount, Integer numProfileRuns, Boolean resetKvCache,
                          Boolean serverProfiler, String apiKeyVariable, String artifactDir, String gateRules,
                          List<String> baselines, List<String> extraArgs) {

    /** Field-keyed problems, empty when the spec can run (also what a form's field check shows). */
    public Map<String, String> validate() {
        final Map<String, String> problems = new LinkedHashMap<>();
        if (isBlank(config) && isBlank(model)) {
            problems.put("model", "a model is required unless a config file is given");
        }
        if (isBlank(config) && (urls == null || urls.isEmpty())) {
            problems.put("urls", "at least one URL is required unless a config file is given");
        }
        if (isBlank(artifactDir)) {
            problems.put("artifactDir", "an artifact directory is required, so the exports can be archived");
        }
        if (apiKeyVariable != null && !apiKeyVariable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            problems.put("apiKeyVariable", "must be an environment variable name");
        }
        if (warmupRequestCount != null && warmupRequestCount <= 0) {
            problems.put("warmupRequestCount", "Input should be greater than 0 (omit it for no warmup)");
        }
        if (numProfileRuns != null && (numProfileRuns < 1 || numProfileRuns > 10)) {
            problems.put("numProfileRuns", "must be between 1 and 10");
        }
        if (extraArgs != null && extraArgs.stream().anyMatch(a -> a.startsWith("--api-key") && !a.startsWith("--api-key-env"))) {
            problems.put("extraArgs", "pass the API key through apiKeyVariable, never as an argument");
        }
        if (baselines != null && !baselines.isEmpty() && isBlank(gateRules)) {
            problems.put("baselines", "baselines are only used with gate rules");
        }
        return problems;
    }

    private static boolean isBlank(final String s) {
        return s == null || s.isBlank();
    }
}
