package io.aiperf.engine.hub;

import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.redact.Redactor;
import io.aiperf.engine.config.NetworkConfig;
import io.aiperf.engine.dataset.TokenizerDownloader;
import io.aiperf.engine.dataset.TokenizerResolver;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Fetches a model's tokenizer files from the Hugging Face hub into the cache, in the layout huggingface_hub itself
 * writes and reads (src-docs/tokenizers.md): {@code GET {HF_ENDPOINT}/{repo}/resolve/{revision}/{file}}, the commit
 * taken from the answer's {@code X-Repo-Commit} header, the file stored as {@code blobs/<etag>} with
 * {@code snapshots/<commit>/<file>} pointing at it and {@code refs/<revision>} naming the commit. {@code HF_TOKEN}
 * (else the token file {@code huggingface-cli login} writes) goes as a bearer token to the hub only, never to a host
 * it redirects to, and never into a message. Requests go through the engine's own client, with its proxy and TLS
 * settings. Thread-safe.
 */
public final class HfHub implements TokenizerDownloader {
    /** The hub's address when {@code HF_ENDPOINT} is not set, as huggingface_hub's default. */
    static final String DEFAULT_ENDPOINT = "https://huggingface.co";
    static final String TOKENIZER = "tokenizer.json";
    static final String TOKENIZER_CONFIG = "tokenizer_config.json";
    static final String CHAT_TEMPLATE = "chat_template.jinja";

    private static final String FIELD = "--tokenizer (benchmark.tokenizer.name)";
    private static final int MAX_BYTES = 256 << 20; // the largest tokenizer.json files are a few tens of MB
    private static final int MAX_REDIRECTS = 5;
    private static final double DEFAULT_TIMEOUT_SECONDS = 300;
    /** A machine without a route to the hub gives up this soon, not after the download's timeout. */
    private static final double CONNECT_TIMEOUT_SECONDS = 2;

    private final NetworkConfig network;

    /** @param network the proxy and TLS settings the hub is reached with */
    public HfHub(final NetworkConfig network) {
        this.network = network;
    }

    /**
     * Downloads {@code tokenizer.json} (required), and {@code tokenizer_config.json} and {@code chat_template.jinja}
     * (when the repo has them) at the revision into {@code cache}.
     *
     * @return the cached {@code tokenizer.json}
     * @throws ConfigException in one line when the repo, the revision or the file is missing, or access is refused
     * @throws TokenizerDownloader.Unreachable in one line when the hub cannot be reached at all
     */
    @Override
    public Path download(final String repo, final String revision, final Path cache, final Map<String, String> env) {
        final String endpoint = endpoint(env);
        final String rev = revision == null || revision.isBlank() ? "main" : revision;
        final String token = token(env);
        final ProbeClient client = new ProbeClient(network);
        final double timeout = timeoutSeconds(env);
        final Path repoDir = cache.resolve("models--" + repo.replace("/", "--"));
        final Fetched tokenizer = fetch(client, endpoint, repo, rev, TOKENIZER, token, timeout, true);
        // The chat template lives here; a repo without one still counts tokens.
        final Fetched config = fetch(client, endpoint, repo, tokenizer.commit, TOKENIZER_CONFIG, token, timeout,
                false);
        // Newer repositories keep the chat template in a file of its own, which transformers prefers.
        final Fetched template = fetch(client, endpoint, repo, tokenizer.commit, CHAT_TEMPLATE, token, timeout,
                false);
        try {
            final Path file = store(repoDir, tokenizer.commit, TOKENIZER, tokenizer);
            if (config != null) {
                store(repoDir, tokenizer.commit, TOKENIZER_CONFIG, config);
            }
            if (template != null) {
                store(repoDir, tokenizer.commit, CHAT_TEMPLATE, template);
            }
            if (!rev.equals(tokenizer.commit)) {
                final Path ref = inside(repoDir.resolve("refs"), rev);
                writeAtomically(ref, tokenizer.commit.getBytes(StandardCharsets.UTF_8));
            }
            return file;
        } catch (IOException | InvalidPathException e) {
            throw new ConfigException(FIELD, "downloaded '" + repo + "' but cannot write it into the Hugging Face "
                    + "cache " + cache + ": " + e.getMessage() + " (set HF_HOME or HF_HUB_CACHE to a writable folder)");
        }
    }

    /** A hub commit id: anything else in X-Repo-Commit (it names a folder) is refused. */
    private static final java.util.regex.Pattern COMMIT_ID = java.util.regex.Pattern.compile("[0-9a-f]{40}");

    private record Fetched(byte[] body, String commit, String etag) {
    }

    /** One file, following the hub's redirects; null for an optional file the repo does not have. */
    private static Fetched fetch(final ProbeClient client, final String endpoint, final String repo,
                                 final String revision, final String file, final String token, final double timeout,
                                 final boolean required) {
        final URI first = URI.create(endpoint + "/" + repo + "/resolve/"
                + URLEncoder.encode(revision, StandardCharsets.UTF_8).replace("+", "%20") + "/" + file);
        URI uri = first;
        String commit = null;
        String etag = null;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            final Map<String, String> headers = new LinkedHashMap<>();
            headers.put("User-Agent", "aiperf-java");
            if (token != null && sameOrigin(uri, first)) {
                headers.put("Authorization", "Bearer " + token); // a CDN the hub redirects to gets no token
            }
            final ProbeClient.Response r;
            try {
                r = client.get(uri, headers, timeout, CONNECT_TIMEOUT_SECONDS, MAX_BYTES);
            } catch (IOException | java.nio.channels.UnresolvedAddressException e) {
                final String why = e instanceof java.nio.channels.UnresolvedAddressException
                        ? "host " + uri.getHost() + " not found" : Redactor.url(e.getMessage());
                throw new TokenizerDownloader.Unreachable("cannot reach the Hugging Face hub at " + Redactor.url(endpoint)
                        + " for '" + repo + "' (" + why + "); check the proxy settings, or set HF_HUB_OFFLINE=1 to use the cache only, "
                        + "or use --tokenizer builtin");
            }
            commit = commit != null ? commit : r.header("X-Repo-Commit");
            etag = etag != null ? etag : r.header("X-Linked-Etag");
            if (r.status() >= 300 && r.status() < 400 && r.header("Location") != null) {
                uri = uri.resolve(r.header("Location"));
                continue;
            }
            if (r.status() == 200) {
                if (commit == null || commit.isBlank()) {
                    throw new ConfigException(FIELD, Redactor.url(endpoint) + " answered for '" + repo + "' without the hub's "
                            + "X-Repo-Commit header: it does not look like a Hugging Face hub (check HF_ENDPOINT "
                            + "and the proxy settings)");
                }
                if (!COMMIT_ID.matcher(commit.strip()).matches()) {
                    throw new ConfigException(FIELD, Redactor.url(endpoint) + " answered for '" + repo + "' with an X-Repo-Commit "
                            + "that is not a commit id (40 hexadecimal digits): nothing was written (check HF_ENDPOINT "
                            + "and the proxy settings)");
                }
                return new Fetched(r.body(), commit.strip(), etag != null ? etag : r.header("ETag"));
            }
            final String code = r.header("X-Error-Code");
            if (!required && (r.status() == 404 || "EntryNotFound".equals(code))) {
                return null;
            }
            throw refused(r.status(), code, endpoint, repo, revision, file, token != null);
        }
        throw new ConfigException(FIELD, "the Hugging Face hub at " + Redactor.url(endpoint) + " redirected " + file + " of '" + repo
                + "' more than " + MAX_REDIRECTS + " times");
    }

    private static ConfigException refused(final int status, final String code, final String endpoint,
                                           final String repo, final String revision, final String file,
                                           final boolean withToken) {
        final String answer = "HTTP " + status + (code == null ? "" : " " + code);
        if ("RevisionNotFound".equals(code)) {
            return new ConfigException("--tokenizer-revision (benchmark.tokenizer.revision)", "'" + repo
                    + "' on the Hugging Face hub has no revision '" + revision + "' (" + answer + ")");
        }
        if ("EntryNotFound".equals(code) || status == 404 && code == null) {
            return new ConfigException(FIELD, "'" + repo + "' on the Hugging Face hub has no " + file + " at revision "
                    + revision + " (" + answer + "); name a local tokenizer.json with --tokenizer, or use "
                    + "--tokenizer builtin");
        }
        if ("RepoNotFound".equals(code) || status == 404) {
            return new ConfigException(FIELD, "no model '" + repo + "' on the Hugging Face hub at " + Redactor.url(endpoint) + " ("
                    + answer + (withToken ? "" : "; if it is private, set HF_TOKEN") + "); name the tokenizer with "
                    + "--tokenizer, or use --tokenizer builtin");
        }
        if (status == 401 || status == 403) {
            return new ConfigException(FIELD, withToken
                    ? "the Hugging Face hub refused HF_TOKEN for '" + repo + "' (" + answer + "): the token's account "
                    + "needs access to this gated or private model (ask for it on the model's page)"
                    : "'" + repo + "' on the Hugging Face hub is gated or private (" + answer + "): set HF_TOKEN to a "
                    + "token of an account with access");
        }
        return new ConfigException(FIELD, "the Hugging Face hub at " + Redactor.url(endpoint) + " answered " + answer + " for " + file
                + " of '" + repo + "'; try again, or set HF_HUB_OFFLINE=1 to use the cache only");
    }

    /** Stores the file as huggingface_hub does: a blob named by its etag, linked from the commit's snapshot. */
    private static Path store(final Path repoDir, final String commit, final String file, final Fetched fetched)
            throws IOException {
        final String etag = blobName(fetched);
        final Path blob = repoDir.resolve("blobs").resolve(etag);
        if (!Files.isRegularFile(blob)) {
            writeAtomically(blob, fetched.body);
        }
        final Path link = inside(repoDir.resolve("snapshots"), commit + "/" + file);
        Files.createDirectories(link.getParent());
        final Path tmp = link.resolveSibling(file + ".tmp-" + ProcessHandle.current().pid());
        Files.deleteIfExists(tmp);
        try {
            Files.createSymbolicLink(tmp, link.getParent().relativize(blob));
        } catch (UnsupportedOperationException | IOException e) {
            Files.write(tmp, fetched.body); // no symbolic links here: a copy, as huggingface_hub does then
        }
        move(tmp, link);
        return link;
    }

    /** The etag without quotes or weak mark, else the content's SHA-256 (a hub sends one of the two). */
    private static String blobName(final Fetched fetched) {
        String etag = fetched.etag;
        if (etag != null) {
            etag = etag.strip();
            if (etag.startsWith("W/")) {
                etag = etag.substring(2);
            }
            etag = etag.replace("\"", "");
        }
        if (etag != null && etag.matches("[A-Za-z0-9._-]{1,128}")) {
            return etag;
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(fetched.body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code name} under {@code folder}; one that would climb out of it (a hostile revision or answer) throws. */
    private static Path inside(final Path folder, final String name) throws IOException {
        final Path base = folder.toAbsolutePath().normalize();
        final Path path = base.resolve(name).normalize();
        if (!path.startsWith(base) || path.equals(base)) {
            throw new IOException("'" + name + "' is not a name inside " + folder);
        }
        return path;
    }

    private static void writeAtomically(final Path target, final byte[] bytes) throws IOException {
        Files.createDirectories(target.getParent());
        final Path tmp = target.resolveSibling(target.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        Files.write(tmp, bytes);
        move(tmp, target);
    }

    private static void move(final Path from, final Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static boolean sameOrigin(final URI a, final URI b) {
        return a.getScheme().equalsIgnoreCase(b.getScheme()) && a.getHost().equalsIgnoreCase(b.getHost())
                && a.getPort() == b.getPort();
    }

    private static String endpoint(final Map<String, String> env) {
        final String v = env.get("HF_ENDPOINT");
        final String endpoint = v == null || v.isBlank() ? DEFAULT_ENDPOINT : v.strip().replaceAll("/+$", "");
        try {
            final URI uri = URI.create(endpoint);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return endpoint;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new ConfigException("HF_ENDPOINT", "'" + Redactor.url(endpoint) + "' is not an http or https URL");
    }

    /** {@code HF_TOKEN}, else the token file ({@code HF_TOKEN_PATH}, else {@code HF_HOME/token}); null for none. */
    private static String token(final Map<String, String> env) {
        final String v = env.get("HF_TOKEN");
        if (v != null && !v.isBlank()) {
            return v.strip();
        }
        final String path = env.get("HF_TOKEN_PATH");
        final Path file = path != null && !path.isBlank() ? Path.of(path)
                : TokenizerResolver.hfHome(env).resolve("token");
        try {
            final String saved = Files.isRegularFile(file) ? Files.readString(file).strip() : "";
            return saved.isEmpty() ? null : saved;
        } catch (IOException e) {
            return null;
        }
    }

    private static double timeoutSeconds(final Map<String, String> env) {
        final String v = env.get("HF_HUB_DOWNLOAD_TIMEOUT");
        if (v == null || v.isBlank()) {
            return DEFAULT_TIMEOUT_SECONDS;
        }
        try {
            final double seconds = Double.parseDouble(v.strip());
            if (seconds > 0 && Double.isFinite(seconds)) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException("HF_HUB_DOWNLOAD_TIMEOUT", "'" + v + "' is not a positive number of seconds");
    }
}
