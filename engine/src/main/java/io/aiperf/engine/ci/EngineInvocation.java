package io.aiperf.engine.ci;

import java.util.List;

/**
 * How to start the engine for a spec: the argument vector (no secrets), the environment variable that must hold
 * the API key (null when none), and the directory its exports land in.
 *
 * @param argv the full command, starting with the launcher
 * @param apiKeyVariable the variable the CI sets to the secret in the engine's environment only, or null
 * @param exportDir where the run's files appear, relative to the working directory
 */
public record EngineInvocation(List<String> argv, String apiKeyVariable, String exportDir) {
}
