package io.aiperf.engine.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options of upstream AIPerf's {@code aiperf profile} that this engine does not accept, each with the reason, so
 * an upstream script that uses one fails in one line that says why (src-docs/cli.md, "Deliberate differences", lists
 * the same names).
 */
public final class UpstreamOptions {
    /** Said for options planned but not built yet. */
    static final String NOT_YET = "not yet supported";
    /** Said for names upstream's development has mentioned that the installed upstream 0.13.0 does not have. */
    public static final String NOT_IN_UPSTREAM = "not an option of upstream AIPerf 0.13.0 either (its installed "
            + "package has no such name)";

    private static final Map<String, String> UNSUPPORTED = table();

    private UpstreamOptions() {
    }

    /** Every unsupported upstream name, with its reason, in the order of the documented table. */
    public static Map<String, String> unsupported() {
        return Collections.unmodifiableMap(UNSUPPORTED);
    }

    /** The reason {@code name} (an option name, or {@code name=value}) is not supported, or null if it is not upstream's. */
    public static String reason(final String arg) {
        final int eq = arg.indexOf('=');
        return UNSUPPORTED.get(eq < 0 ? arg : arg.substring(0, eq));
    }

    private static Map<String, String> table() {
        final Map<String, String> m = new LinkedHashMap<>();
        add(m, "accuracy evaluation is not part of this engine; run it with upstream AIPerf or an evaluation harness",
                "--accuracy-benchmark", "--accuracy-tasks", "--accuracy-n-shots", "--accuracy-enable-cot",
                "--accuracy-no-enable-cot", "--accuracy-grader", "--accuracy-system-prompt", "--accuracy-verbose");
        add(m, "agentic (Weka) trace replay is not implemented; mooncake traces and multi_turn files cover trace replay",
                "--agentic-cache-warmup-duration", "--agentic-warmup-grace-period", "--allow-dataset-wrap",
                "--no-allow-dataset-wrap", "--trajectory-start-min-ratio", "--trajectory-start-max-ratio",
                "--burst-phase-starts", "--trace-idle-gap-cap-seconds", "--system-idle-gap-cap-seconds",
                "--use-think-time-only", "--max-context-length", "--hf-weka-dataset");
        add(m, "an option of the baseten_trace (Parquet) loader, which is not implemented",
                "--replay-speedup", "--max-idle-gap-cap-seconds", "--open-loop-replay", "--no-open-loop-replay",
                "--open-loop-strict", "--omit-kv-hints", "--force-min-tokens", "--no-force-min-tokens",
                "--trace-session-sample-ratio");
        add(m, "public datasets are read from local copies, and only ShareGPT", "--hf-subset", "--dataset-filter");
        add(m, "vLLM's multimodal-cache image stripping is not implemented; images are sent whole each time",
                "--uuid-and-strip");
        add(m, "video inputs and video generation endpoints are not implemented",
                "--video-batch-size", "--batch-size-video", "--video-duration", "--video-fps", "--video-width",
                "--video-height", "--video-synth-type", "--video-format", "--video-codec", "--video-audio-sample-rate",
                "--video-audio-num-channels", "--video-audio-codec", "--video-audio-depth", "--download-video-content");
        add(m, "trace synthesis (upstream's `aiperf synthesize`) is not implemented",
                "--synthesis-speedup-ratio", "--synthesis-prefix-len-multiplier", "--synthesis-prefix-root-multiplier",
                "--synthesis-prompt-len-multiplier", "--synthesis-output-len-multiplier", "--synthesis-max-isl",
                "--synthesis-max-osl");
        add(m, "scenario locks belong to upstream's submission rules", "--scenario", "--unsafe-override");
        add(m, "no MLflow or W&B exporters (they need those servers); CI archives the export files and trends them, "
                + "and --otel-url pushes the results to an OpenTelemetry collector", "--mlflow-tracking-uri",
                "--mlflow-experiment", "--mlflow-run-name", "--mlflow-tag", "--mlflow-parent-run-id",
                "--mlflow-artifact-glob", "--wandb-project", "--wandb-entity", "--wandb-run-name", "--wandb-tag");
        add(m, "network-adjusted latencies are not computed; benchmark from a client close to the server",
                "--network-latency-automatic", "--network-latency-mean", "--network-latency-ping-interval");
        add(m, "there is no API server and no periodic stats log; the console shows live progress every second",
                "--api-port", "--api-host", "--stats-interval");
        add(m, "the capacity search plans with a bisection or a grid; the Bayesian and Optuna planners need "
                + "libraries this engine does not have (capacity.md in the docs), and scenario variants are not "
                + "implemented", "--optuna-sampler", "--optuna-acquisition", "--optuna-terminator",
                "--variant", "--sweep-variant");
        add(m, "an option of upstream's sweep recipes (pareto-sweep, concurrency-ramp, prefill-ttft-curve, "
                + "decode-itl-curve); the recipes here are the searches under SLOs (capacity.md in the docs)",
                "--isl-osl-pairs", "--degradation-threshold",
                "--degradation-metric-tag", "--degradation-stat", "--isl-min", "--isl-max", "--isl-steps",
                "--concurrency-steps", "--osl-min", "--osl-max", "--osl-steps");
        add(m, "vLLM- and SGLang-style ratio windows for ISL and OSL are not implemented (their draws follow those "
                + "tools' random generators); --isl-stddev/--osl-stddev or --seq-dist shape the lengths here",
                "--random-range-ratio", "--random-corpus-style");
        add(m, NOT_IN_UPSTREAM + "; sessions start at the load's pace here (--request-rate, --arrival-pattern, "
                + "--arrival-smoothness)", "--session-arrival-rate", "--session-arrival-pattern",
                "--session-arrival-smoothness");
        return m;
    }

    private static void add(final Map<String, String> m, final String reason, final String... names) {
        for (final String name : List.of(names)) {
            if (m.put(name, reason) != null) {
                throw new IllegalStateException("listed twice: " + name);
            }
        }
    }
}
