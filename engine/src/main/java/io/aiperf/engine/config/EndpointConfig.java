package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * Where and how inference requests are sent.
 *
 * @param urls base URLs with a scheme, in the order given
 * @param customPath the path that replaces the endpoint's default, or null for the default ("" appends nothing)
 * @param apiKey sent as {@code Authorization: Bearer}, or null
 * @param headers user headers in the order given
 * @param extra fields merged into every request body
 * @param timeoutSeconds request timeout; 0 means none
 * @param resetKvCache the reset hook, or null when disabled
 * @param serverProfiler the profiler hook, or null when disabled
 * @param tls how https targets are trusted
 * @param proxy which proxy carries the traffic to each target
 * @param http2 inference requests as HTTP/2 (AIPerf's {@code http2}); HTTP/1.1 otherwise
 * @param connectionReuse when a request may go out on a connection an earlier one used
 * @param perChunkUsage ask for usage on every streamed chunk ({@code --per-chunk-usage}), for ITL's first-chunk count
 */
public record EndpointConfig(List<String> urls, EndpointType type, String customPath, boolean streaming,
                             Secret apiKey, Map<String, String> headers, ObjectNode extra,
                             double timeoutSeconds, boolean useServerTokenCount, boolean useLegacyMaxTokens,
                             ResetKvCacheConfig resetKvCache, ServerProfilerConfig serverProfiler, TlsConfig tls,
                             ServerMetricsConfig serverMetrics, String modelSelection, String sessionHeader,
                             PayloadTemplate template, List<String> gpuTelemetry, ProxyConfig proxy,
                             boolean http2, ConnectionReuse connectionReuse, WaitForModel waitForModel,
                             boolean perChunkUsage) {

    /** This endpoint with other control hooks (null for none): a shard but the first runs none. */
    public EndpointConfig withHooks(final ResetKvCacheConfig resetKvCache, final ServerProfilerConfig serverProfiler) {
        return new EndpointConfig(urls, type, customPath, streaming, apiKey, headers, extra, timeoutSeconds,
                useServerTokenCount, useLegacyMaxTokens, resetKvCache, serverProfiler, tls, serverMetrics,
                modelSelection, sessionHeader, template, gpuTelemetry, proxy, http2, connectionReuse, waitForModel,
                perChunkUsage);
    }

    /** Without per-chunk usage ({@code --per-chunk-usage}). */
    public EndpointConfig(final List<String> urls, final EndpointType type, final String customPath,
                          final boolean streaming, final Secret apiKey, final Map<String, String> headers,
                          final ObjectNode extra, final double timeoutSeconds, final boolean useServerTokenCount,
                          final boolean useLegacyMaxTokens, final ResetKvCacheConfig resetKvCache,
                          final ServerProfilerConfig serverProfiler, final TlsConfig tls,
                          final ServerMetricsConfig serverMetrics, final String modelSelection,
                          final String sessionHeader, final PayloadTemplate template, final List<String> gpuTelemetry,
                          final ProxyConfig proxy, final boolean http2, final ConnectionReuse connectionReuse,
                          final WaitForModel waitForModel) {
        this(urls, type, customPath, streaming, apiKey, headers, extra, timeoutSeconds, useServerTokenCount,
                useLegacyMaxTokens, resetKvCache, serverProfiler, tls, serverMetrics, modelSelection, sessionHeader,
                template, gpuTelemetry, proxy, http2, connectionReuse, waitForModel, false);
    }

    /** How servers are reached, on every path. */
    public NetworkConfig network() {
        return new NetworkConfig(tls, proxy, http2);
    }

    /** The path appended to each base URL. */
    public String path() {
        return customPath != null ? customPath : type.defaultPath(streaming);
    }
}
