package io.aiperf.engine.ci;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Turns a {@link ProfileSpec} into the engine command. Stateless. */
public final class InvocationPlanner {
    private InvocationPlanner() {
    }

    /**
     * @param launcher the engine command prefix, e.g. {@code ["java", "-jar", "/path/aiperf.jar"]}
     * @throws IllegalArgumentException with the spec's problems when it is invalid
     */
    public static EngineInvocation plan(final ProfileSpec spec, final List<String> launcher) {
        final Map<String, String> problems = spec.validate();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid aiperf step: " + problems);
        }
        final List<String> argv = new ArrayList<>(launcher);
        argv.add("profile");
        add(argv, "--config", spec.config());
        add(argv, "--model", spec.model());
        if (spec.urls() != null) {
            spec.urls().forEach(u -> add(argv, "--url", u));
        }
        add(argv, "--endpoint-type", spec.endpointType());
        if (spec.streaming() != null) {
            argv.add("--streaming=" + spec.streaming());
        }
        add(argv, "--concurrency", spec.concurrency());
        add(argv, "--request-rate", spec.requestRate());
        add(argv, "--request-count", spec.requestCount());
        add(argv, "--benchmark-duration", spec.benchmarkDuration());
        add(argv, "--warmup-request-count", spec.warmupRequestCount());
        add(argv, "--num-profile-runs", spec.numProfileRuns());
        if (spec.resetKvCache() != null) {
            argv.add("--reset-kv-cache=" + spec.resetKvCache());
        }
        if (spec.serverProfiler() != null) {
            argv.add("--server-profiler=" + spec.serverProfiler());
        }
        add(argv, "--api-key-env", spec.apiKeyVariable());
        add(argv, "--artifact-dir", spec.artifactDir());
        if (spec.gateRules() != null && !spec.gateRules().isBlank()) {
            add(argv, "--gate", spec.gateRules());
            if (spec.baselines() != null) {
                spec.baselines().forEach(b -> add(argv, "--baseline", b));
            }
        }
        if (spec.extraArgs() != null) {
            argv.addAll(spec.extraArgs());
        }
        return new EngineInvocation(List.copyOf(argv), spec.artifactDir());
    }

    private static void add(final List<String> argv, final String flag, final Object value) {
        if (value != null && !(value instanceof String s && s.isBlank())) {
            argv.add(flag);
            argv.add(String.valueOf(value));
        }
    }
}
