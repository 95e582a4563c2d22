package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Binds {@code benchmark.endpoint}: the URLs, the API's type and body, timeouts, TLS and proxy, and (through
 * {@link TelemetryBinder} and {@link ControlHooksBinder}) what the run reads from the server and asks of it.
 */
final class EndpointBinder {
    static final List<String> ENDPOINT_KEYS = List.of("urls", "type", "path", "streaming", "api_key", "headers",
            "extra", "timeout", "use_server_token_count", "use_legacy_max_tokens", "url_strategy",
            "reset_kv_cache", "server_profiler", "ssl_verify", "ssl_ca_file", "ssl_cert_file", "ssl_key_file",
            "proxy", "http2", "server_metrics", "model_selection",
            "session_header", "template", "gpu_telemetry", "connection_reuse", "wait_for_model_timeout",
            "wait_for_model_interval", "wait_for_model_mode", "per_chunk_usage");
    private final List<String> warnings;
    private final ConfigInputs inputs;
    private final TelemetryBinder telemetry;

    EndpointBinder(final List<String> warnings, final ConfigInputs inputs) {
        this.warnings = warnings;
        this.inputs = inputs;
        this.telemetry = new TelemetryBinder(warnings);
    }

    EndpointConfig bind(final Section e) {
        e.allowOnly(ENDPOINT_KEYS);
        final List<String> raw = e.stringList("urls");
        if (raw.isEmpty()) {
            raw.add(e.declaredDefault("urls"));
        }
        final List<String> urls = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            urls.add(normalizeUrl(e.field("urls") + (raw.size() > 1 ? "[" + i + "]" : ""), raw.get(i)));
        }
        final ArrayNode urlNode = e.node().putArray("urls");
        urls.forEach(urlNode::add);
        final EndpointType type = EndpointType.parse(e.field("type"), e.defaultedString("type"));
        e.node().put("type", type.wireName());
        final String path = e.string("path", null);
        boolean streaming = e.bool("streaming", false);
        if (streaming && !type.supportsStreaming()) {
            warnings.add("streaming is not supported by the " + type.wireName() + " endpoint; sending without it");
            streaming = false;
        }
        final String apiKey = e.string("api_key", null);
        final Map<String, String> headers = new LinkedHashMap<>();
        final JsonNode h = e.raw("headers");
        if (h != null && !h.isNull()) {
            if (!h.isObject()) {
                throw e.error("headers", "expected a mapping of header names to values");
            }
            h.properties().forEach(f -> headers.put(f.getKey(), f.getValue().asText()));
        }
        final JsonNode extra = e.raw("extra");
        if (extra != null && !extra.isNull() && !extra.isObject()) {
            throw e.error("extra", "expected a mapping of body fields");
        }
        if (extra != null && extra.has("stream") && extra.get("stream").asBoolean(false) != streaming
                && type.supportsStreaming()) {
            // the body field would silently decide what the run measures (TTFT or not), against the flag
            throw e.error("extra", "'stream: " + extra.get("stream").asText() + "' contradicts "
                    + (streaming ? "--streaming" : "the default of not streaming") + "; use --streaming (or leave it "
                    + "out) instead of setting stream in --extra-inputs");
        }
        final double timeout = e.defaultedNumber("timeout");
        if (!(timeout >= 0) || Double.isInfinite(timeout)) {
            throw e.error("timeout", "Input should be greater than 0");
        }
        final String urlStrategy = e.defaultedString("url_strategy");
        if (!urlStrategy.equals("round_robin")) {
            throw e.error("url_strategy", "only round_robin is supported");
        }
        final boolean serverTokens = e.bool("use_server_token_count", false);
        final boolean perChunkUsage = e.bool("per_chunk_usage", false);
        if (perChunkUsage && (!serverTokens || type != EndpointType.CHAT || !streaming)) {
            // upstream's three conditions: the count comes from the server's usage, on chat's streamed chunks
            throw e.error("per_chunk_usage", !serverTokens ? "--per-chunk-usage needs --use-server-token-count (the "
                    + "first chunk's token count comes from the server's per-chunk usage)"
                    : type != EndpointType.CHAT ? "--per-chunk-usage needs --endpoint-type chat" : "--per-chunk-usage "
                    + "needs --streaming");
        }
        return new EndpointConfig(List.copyOf(urls), type, path, streaming,
                apiKey == null || apiKey.isEmpty() ? null : new Secret(apiKey), headers,
                extra == null || extra.isNull() ? null : (ObjectNode) extra, timeout,
                serverTokens, e.bool("use_legacy_max_tokens", false),
                ControlHooksBinder.resetHook(e), ControlHooksBinder.profilerHook(e), tls(e),
                telemetry.serverMetrics(e, urls), modelSelection(e), sessionHeader(e),
                template(e, type), TelemetryBinder.gpuTelemetry(e), proxy(e),
                e.bool("http2", false), connectionReuse(e), waitForModel(e), perChunkUsage);
    }

    /** Upstream's {@code wait_for_model_timeout/interval/mode}: timeout 0 (no waiting), the others the table's. */
    private static WaitForModel waitForModel(final Section e) {
        final Double timeout = e.seconds("wait_for_model_timeout");
        final Double interval = e.seconds("wait_for_model_interval");
        final String mode = e.defaultedString("wait_for_model_mode").toLowerCase(Locale.ROOT);
        if (timeout != null && !(timeout >= 0)) {
            throw e.error("wait_for_model_timeout", "Input should be greater than or equal to 0");
        }
        if (interval != null && !(interval > 0)) {
            throw e.error("wait_for_model_interval", "Input should be greater than 0");
        }
        if (!List.of("inference", "models", "both").contains(mode)) {
            throw e.error("wait_for_model_mode", "expected inference, models or both, got '" + mode + "'");
        }
        return new WaitForModel(timeout == null ? 0 : timeout,
                interval == null ? Double.parseDouble(e.declaredDefault("wait_for_model_interval")) : interval, mode);
    }

    /** {@code connection_reuse}: upstream's strategies (src-docs/cli.md, connection reuse). */
    private static ConnectionReuse connectionReuse(final Section e) {
        final String v = e.string("connection_reuse", ConnectionReuse.POOLED.wireName());
        final ConnectionReuse r = ConnectionReuse.parse(v);
        if (r == null) {
            throw e.error("connection_reuse", "expected pooled, never or sticky-user-sessions; got '" + v + "'");
        }
        e.node().put("connection_reuse", r.wireName());
        return r;
    }

    private PayloadTemplate template(final Section e, final EndpointType type) {
        final JsonNode extra = e.raw("extra");
        if (!e.has("template") && type == EndpointType.TEMPLATE && extra != null && extra.has("payload_template")) {
            // upstream's --extra-inputs payload_template:... and response_field:..., which are no body fields
            final ObjectNode x = (ObjectNode) extra;
            final ObjectNode t = e.node().putObject("template");
            t.put("body", inputs.payloadTemplate(x.remove("payload_template").asText(), e.field("extra")));
            final JsonNode field = x.remove("response_field");
            t.set("response_field", field == null ? com.fasterxml.jackson.databind.node.TextNode.valueOf("")
                    : field); // none given: detected, as upstream's template endpoint does
        }
        if (!e.has("template")) {
            if (type == EndpointType.TEMPLATE) {
                throw e.error("template", "the template endpoint needs template: {body, response_field} or "
                        + "--extra-inputs payload_template:TEMPLATE");
            }
            return null;
        }
        final Section t = e.section("template");
        t.allowOnly(List.of("body", "response_field"));
        final JsonNode raw = t.raw("body");
        final String body = raw == null ? null : raw.isTextual() ? raw.asText() : raw.toString();
        if (body == null || body.isBlank()) {
            throw t.error("body", "a template needs a body");
        }
        final String field = t.string("response_field", "text");
        final PayloadTemplate template = new PayloadTemplate(body, field.isEmpty() ? null : field);
        final String problem = template.problem();
        if (problem != null) {
            throw t.error("body", problem);
        }
        return template;
    }

    private static String modelSelection(final Section e) {
        final String v = e.defaultedString("model_selection").toLowerCase(Locale.ROOT).replace('-', '_');
        if (!v.equals("round_robin") && !v.equals("random")) {
            throw e.error("model_selection", "expected round_robin or random, got '" + v + "' (weighted is listed "
                    + "under deliberate differences in src-docs/cli.md)");
        }
        return v;
    }

    private static String sessionHeader(final Section e) {
        final String v = e.string("session_header", "X-Correlation-ID");
        if (!v.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
            throw e.error("session_header", "'" + v + "' is not an HTTP header name");
        }
        return v;
    }

    /** {@code proxy}, else the proxy variables of the environment. */
    private ProxyConfig proxy(final Section e) {
        try {
            return ProxyConfig.of(e.string("proxy", null), inputs.environment());
        } catch (ConfigException ex) {
            throw "endpoint.proxy".equals(ex.field()) ? e.error("proxy", ex.reason()) : ex;
        }
    }

    private TlsConfig tls(final Section e) {
        final TlsConfig tls = new TlsConfig(e.bool("ssl_verify", true), e.string("ssl_ca_file", null),
                e.string("ssl_cert_file", null), e.string("ssl_key_file", null));
        if (tls.caFile() != null) {
            try {
                inputs.certificates(tls.caFile());
            } catch (java.io.IOException | java.security.GeneralSecurityException ex) {
                throw e.error("ssl_ca_file", "cannot read CA certificates from " + tls.caFile() + ": " + ex.getMessage());
            }
        }
        if ((tls.certFile() == null) != (tls.keyFile() == null)) {
            throw e.error(tls.certFile() == null ? "ssl_cert_file" : "ssl_key_file", "a client certificate needs "
                    + "both ssl_cert_file and ssl_key_file (--ssl-cert-file, --ssl-key-file)");
        }
        if (tls.certFile() != null) {
            try {
                inputs.certificates(tls.certFile());
            } catch (java.io.IOException | java.security.GeneralSecurityException ex) {
                throw e.error("ssl_cert_file", "cannot read the client certificate from " + tls.certFile() + ": "
                        + ex.getMessage());
            }
            try {
                inputs.privateKey(tls.keyFile());
            } catch (java.io.IOException | java.security.GeneralSecurityException ex) {
                throw e.error("ssl_key_file", "cannot read the client key from " + tls.keyFile() + ": "
                        + ex.getMessage());
            }
        }
        if (!tls.verify()) {
            warnings.add("TLS certificate verification is off (ssl_verify: false, --ssl-insecure or "
                    + "AIPERF_HTTP_SSL_VERIFY=false): the server's identity is not checked");
        }
        return tls;
    }

    static String normalizeUrl(final String field, final String text) {
        final String trimmed = text.trim();
        final String withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed;
        final URI uri;
        try {
            uri = new URI(withScheme);
        } catch (URISyntaxException ex) {
            throw new ConfigException(field, "invalid URL '" + redactUserInfo(text) + "': " + ex.getReason());
        }
        final String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ConfigException(field, "invalid URL '" + redactUserInfo(text)
                    + "': only http and https are supported");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new ConfigException(field, "invalid URL '" + redactUserInfo(text) + "': a host is required");
        }
        if (uri.getPort() > 65535) {
            throw new ConfigException(field, "invalid URL '" + redactUserInfo(text) + "': port " + uri.getPort()
                    + " is out of range (1-65535)");
        }
        return withScheme.endsWith("/") ? withScheme.substring(0, withScheme.length() - 1) : withScheme;
    }

    static String redactUserInfo(final String url) {
        return url.replaceAll("://[^/@]*@", "://<redacted>@");
    }
}
