package io.aiperf.engine.record;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a cell ran (src-docs/validity.md): the engine, the client host, the server as it describes itself, and what
 * was asked of it. Written into every summary so a gate can refuse to compare runs from different environments.
 *
 * @param loadAverage the client host's one-minute load average at the start, or -1 when unknown
 * @param tokenizer the tokenizer that counted tokens, as {@code name (source)}
 * @param tokenizerInfo the same in detail
 * @param configHash SHA-256 of the effective configuration (secrets redacted), to tell configs apart
 * @param connection how the inference requests reached the server
 */
public record Environment(String engineVersion, String engineCommit, String java, int clientCores,
                          double loadAverage, String os, String model, String tokenizer, TokenizerInfo tokenizerInfo,
                          String configHash, ServerIdentity server, Connection connection) {

    /**
     * How the inference requests reached the server, as the first connection negotiated it
     * (src-docs/proxies-and-tls.md); every field is null when no connection was made.
     *
     * @param protocol {@code HTTP/1.1} or {@code HTTP/2}
     * @param tlsVersion the TLS version ({@code TLSv1.3}), null for plain HTTP
     * @param alpn the protocol ALPN agreed on ({@code http/1.1}, {@code h2}), null when none was
     * @param proxy the proxy the requests went through, without credentials, or null
     */
    public record Connection(String protocol, String tlsVersion, String alpn, String proxy) {
        public static final Connection UNKNOWN = new Connection(null, null, null, null);
    }

    /**
     * @param revision the Hugging Face revision it was found under, or null
     * @param source builtin, builtin-fallback, file or hf-cache
     * @param vocabSize tokens in its vocabulary, added tokens included
     */
    public record TokenizerInfo(String name, String revision, String source, int vocabSize) {
    }

    /**
     * The server as it describes itself; every field is null when the server does not say.
     *
     * @param models the ids (and owners) listed by {@code GET /v1/models}
     * @param serverHeader the {@code Server} header of that answer
     * @param version the body of {@code GET /version}, abbreviated
     * @param buildInfo the {@code *build_info*} series of {@code GET /metrics}
     * @param gpu a GPU name found in those series' labels
     */
    public record ServerIdentity(List<String> models, String serverHeader, String version, List<String> buildInfo,
                                 String gpu) {
        public static final ServerIdentity UNKNOWN = new ServerIdentity(List.of(), null, null, List.of(), null);
    }

    /** The flat fields a gate's {@code require_same} compares. */
    public Map<String, String> fingerprint() {
        final Map<String, String> f = new LinkedHashMap<>();
        f.put("model", model);
        f.put("tokenizer", tokenizer);
        f.put("config_hash", configHash);
        f.put("served_model", server.models().isEmpty() ? null : server.models().get(0));
        f.put("server", server.serverHeader());
        f.put("server_version", server.version());
        f.put("gpu", server.gpu());
        f.put("engine_version", engineVersion);
        f.put("engine_commit", engineCommit);
        f.put("java", java);
        f.put("client_cores", Integer.toString(clientCores));
        f.put("protocol", connection.protocol());
        return f;
    }
}
