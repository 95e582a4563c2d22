package io.aiperf.engine.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * {@code aiperf profile --help} grouped by topic, as upstream AIPerf groups its options (endpoint, input, load,
 * output, ...), instead of one alphabetical list of some 140 options; a short synopsis, and examples at the end.
 * An option no topic names is listed under "Other options", never left out; a command that adds options of its
 * own to profile's ({@code compare}) lists those first, under its name, since they are what its help is read for.
 */
final class ProfileHelp {
    /** The topics in the order shown, each with its options by their longest name. */
    static final Map<String, List<String>> TOPICS = topics();

    private ProfileHelp() {
    }

    private static Map<String, List<String>> topics() {
        final Map<String, List<String>> t = new LinkedHashMap<>();
        t.put("Endpoint", List.of("--model-names", "--url", "--endpoint-type", "--custom-endpoint", "--streaming",
                "--api-key", "--api-key-env", "--header", "--extra-inputs", "--request-timeout-seconds",
                "--ssl-ca-file", "--ssl-insecure", "--ssl-cert-file", "--ssl-key-file", "--proxy", "--http2",
                "--use-server-token-count", "--use-legacy-max-tokens",
                "--model-selection-strategy", "--url-strategy", "--mock", "--mock-max-slots",
                "--wait-for-model-timeout", "--wait-for-model-interval", "--wait-for-model-mode"));
        t.put("Load", List.of("--concurrency", "--request-rate", "--request-rate-mode", "--arrival-smoothness",
                "--request-count", "--benchmark-duration", "--benchmark-grace-period", "--concurrency-ramp-duration",
                "--request-rate-ramp-duration", "--request-rate-series", "--prefill-concurrency", "--prefill-concurrency-ramp-duration",
                "--user-centric-rate", "--num-users", "--fixed-schedule", "--no-fixed-schedule",
                "--fixed-schedule-auto-offset", "--fixed-schedule-start-offset", "--fixed-schedule-end-offset",
                "--request-cancellation-rate", "--request-cancellation-delay", "--max-error-rate",
                "--failed-request-threshold"));
        t.put("Warmup", List.of("--warmup-request-count", "--warmup-duration", "--warmup-concurrency",
                "--warmup-request-rate", "--warmup-arrival-pattern", "--warmup-grace-period",
                "--warmup-concurrency-ramp-duration", "--warmup-request-rate-ramp-duration",
                "--warmup-prefill-concurrency", "--warmup-prefill-concurrency-ramp-duration", "--num-warmup-sessions"));
        t.put("Input: prompts and datasets", List.of("--synthetic-input-tokens-mean", "--synthetic-input-tokens-stddev",
                "--prompt-output-tokens-mean", "--prompt-output-tokens-stddev", "--sequence-distribution",
                "--synthetic-input-tokens-block-size", "--num-dataset-entries", "--random-seed", "--input-file",
                "--custom-dataset-type", "--public-dataset", "--dataset-sampling-strategy", "--prompt-batch-size",
                "--prompt-prefix-pool-size", "--prefix-prompt-length", "--shared-system-prompt-length",
                "--rankings-passages-mean", "--rankings-passages-stddev", "--rankings-passages-prompt-token-mean",
                "--rankings-passages-prompt-token-stddev", "--rankings-query-prompt-token-mean",
                "--rankings-query-prompt-token-stddev", "--ignore-trace-delays", "--media-root"));
        t.put("Input: synthetic images and audio", List.of("--image-width-mean", "--image-width-stddev",
                "--image-height-mean", "--image-height-stddev", "--image-batch-size", "--image-format",
                "--image-source", "--image-source-sampling", "--audio-batch-size", "--audio-length-mean",
                "--audio-length-stddev", "--audio-format", "--audio-depths", "--audio-sample-rates",
                "--audio-num-channels"));
        t.put("Input: sessions (multi-turn)", List.of("--num-conversations", "--conversation-turn-mean",
                "--conversation-turn-stddev", "--conversation-turn-delay-mean", "--conversation-turn-delay-stddev",
                "--conversation-turn-delay-ratio", "--session-header", "--inter-turn-delay-cap-seconds",
                "--user-context-prompt-length"));
        t.put("Tokenizer", List.of("--tokenizer", "--tokenizer-revision", "--tokenizer-trust-remote-code",
                "--apply-chat-template"));
        t.put("Output", List.of("--output-artifact-dir", "--profile-export-prefix", "--profile-export-level",
                "--export-outputs-json", "--slice-duration", "--goodput", "--output-format", "--export-http-trace",
                "--show-trace-timing", "--auto-plot", "--no-auto-plot", "--plot-required", "--otel-url", "--stream",
                "--otel-resource-attributes", "--gen-ai-provider"));
        t.put("Console and logging", List.of("--quiet", "--log-level", "--verbose", "--extra-verbose", "--ui-type"));
        t.put("Config, sweeps and trials", List.of("--config", "--sweep-type", "--num-profile-runs",
                "--profile-run-cooldown-seconds", "--confidence-level", "--profile-run-disable-warmup-after-first",
                "--no-profile-run-disable-warmup-after-first", "--set-consistent-seed", "--no-set-consistent-seed",
                "--cell", "--no-sweep-table", "--convergence-metric", "--convergence-stat", "--convergence-threshold",
                "--convergence-mode", "--vary-seed-per-trial", "--no-vary-seed-per-trial",
                "--parameter-sweep-cooldown-seconds", "--parameter-sweep-same-seed", "--no-parameter-sweep-same-seed",
                "--parameter-sweep-mode"));
        t.put("Capacity search", List.of("--search-space", "--search-sla", "--search-recipe", "--ttft-sla-ms",
                "--concurrency-min", "--concurrency-max", "--search-planner", "--search-max-iterations", "--search-trials-max",
                "--search-boundary-band", "--search-max-client-lateness", "--itl-sla-ms", "--tpot-sla-ms",
                "--e2e-sla-ms", "--error-rate-sla", "--slo-attainment-fraction", "--search-style", "--search-metric",
                "--search-stat", "--search-direction", "--search-percentile-pooling", "--search-sla-tier",
                "--search-initial-points", "--search-random-seed", "--bo-constraint-mode"));
        t.put("Control hooks", List.of("--reset-kv-cache", "--reset-kv-cache-path", "--reset-kv-cache-timeout-seconds",
                "--reset-kv-cache-max-retry-seconds", "--server-profiler", "--server-profiler-start-path",
                "--server-profiler-stop-path", "--server-profiler-timeout-seconds"));
        t.put("Server metrics and GPU telemetry", List.of("--server-metrics", "--no-server-metrics",
                "--server-metrics-formats", "--gpu-telemetry", "--no-gpu-telemetry"));
        t.put("Regression gate, shards and CI", List.of("--gate", "--baseline", "--require-baseline", "--label", "--shard",
                "--start-at", "--pid-file"));
        t.put("HTTP client", List.of("--http-client", "--connection-reuse-strategy", "--no-preconnect",
                "--no-retry-unsent", "--max-event-bytes", "--max-response-bytes", "--max-response-head-bytes"));
        t.put("Accepted for upstream scripts (no effect here)", List.of("--transport-type", "--request-content-type",
                "--prompt-corpus", "--cache-bust", "--workers-max", "--record-processor-service-count", "--zmq-host",
                "--zmq-ipc-path", "--zmq-dual-bind"));
        t.put("Help", List.of("--help", "--version"));
        return t;
    }

    /** Installs the grouped option list and a short synopsis on a command with profile's options. */
    static void install(final CommandLine command) {
        command.getCommandSpec().usageMessage().customSynopsis("aiperf " + command.getCommandName() + " [OPTIONS]");
        command.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING, help -> "");
        command.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, ProfileHelp::optionList);
    }

    private static String optionList(final CommandLine.Help help) {
        final String command = help.commandSpec().name();
        final Map<String, OptionSpec> byName = new LinkedHashMap<>();
        for (final OptionSpec o : help.commandSpec().options()) {
            if (!o.hidden()) {
                byName.put(o.longestName(), o);
            }
        }
        final Set<String> shown = new LinkedHashSet<>();
        final StringBuilder sb = new StringBuilder();
        final Map<String, List<String>> groups = new LinkedHashMap<>();
        if (!command.equals("profile")) {
            groups.put(Character.toUpperCase(command.charAt(0)) + command.substring(1) + " options", ownOptions(help));
        }
        final List<String> other = new ArrayList<>(byName.keySet());
        TOPICS.values().forEach(other::removeAll);
        groups.values().forEach(other::removeAll);
        groups.putAll(TOPICS);
        if (!other.isEmpty() && command.equals("profile")) {
            groups.put("Other options", other);
        }
        groups.forEach((topic, names) -> {
            final CommandLine.Help.Layout layout = help.createDefaultLayout();
            for (final String name : names) {
                final OptionSpec o = byName.get(name);
                if (o != null && shown.add(name)) {
                    layout.addOption(OptionTable.describe(o), help.parameterLabelRenderer());
                }
            }
            if (!layout.toString().isEmpty()) {
                sb.append(String.format("%n%s:%n", topic)).append(layout);
            }
        });
        return sb.toString();
    }

    /** The options a command declares itself, not through the mixins it shares with profile. */
    private static List<String> ownOptions(final CommandLine.Help help) {
        final Set<String> mixed = new LinkedHashSet<>();
        help.commandSpec().mixins().values().forEach(m -> m.options().forEach(o -> mixed.add(o.longestName())));
        return help.commandSpec().options().stream().map(OptionSpec::longestName)
                .filter(n -> !mixed.contains(n) && !n.equals("--help") && !n.equals("--version")).toList();
    }
}
