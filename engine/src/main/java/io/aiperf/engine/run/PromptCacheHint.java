package io.aiperf.engine.run;

import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.metrics.MetricsSummary;

/**
 * The hint upstream AIPerf 0.13 also gives: a server that reports token usage but never a prompt-cache read leaves
 * the prompt-cache metrics empty, which looks like a fault of the tool when the server caches prefixes but was not
 * told to say so. Judged on a cell's summary (usage prompt tokens summed, no cache read summed; a reported 0 counts as
 * reported), and said once a run ({@link io.aiperf.engine.log.RunLog#warningOnce}). Not said of the engine's own mock,
 * which has no prompt cache to report: the hint would only be noise on every {@code --mock} run.
 */
final class PromptCacheHint {
    static final String MESSAGE = "the server reports token usage but no prompt-cache reads "
            + "(usage.prompt_tokens_details.cached_tokens), so the prompt-cache metrics are empty; if it caches "
            + "prompt prefixes, turn its cache report on (vLLM --enable-prompt-tokens-details, SGLang "
            + "--enable-cache-report; TensorRT-LLM reports it without a flag)";

    /** The Server header of the engine's mock (mock.MiniHttpServer; this package may not use that one). */
    static final String ENGINE_MOCK = "aiperf-java-mock";

    private PromptCacheHint() {
    }

    static boolean applies(final MetricsSummary metrics, final io.aiperf.engine.record.Environment.ServerIdentity server) {
        return !ENGINE_MOCK.equals(server.serverHeader())
                && metrics.get(MetricRegistry.TOTAL_USAGE_PROMPT.tag()) != null
                && metrics.get(MetricRegistry.TOTAL_USAGE_PROMPT_CACHE_READ.tag()) == null;
    }
}
