package io.aiperf.engine.hub;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback stand-in for the Hugging Face hub's resolve route, answering as the hub does: {@code X-Repo-Commit} on
 * every answer, {@code X-Error-Code} on errors, 401 for a gated repo asked without its token, a redirect for a file kept
 * elsewhere (as the hub sends large files to its CDN). Records each request's path and Authorization header.
 */
public final class FakeHub implements AutoCloseable {
    public static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";

    private record Repo(Map<String, String> files, String token) {
    }

    private final HttpServer server;
    private final Map<String, Repo> repos = new ConcurrentHashMap<>();
    /** Answers any revision as if it existed (a hostile or careless hub). */
    public volatile boolean anyRevision;
    /** The X-Repo-Commit it answers (a hostile hub's may be anything). */
    public volatile String commit = COMMIT;
    /** "path auth" of every request, auth being "-" when none. */
    public final List<String> requests = new CopyOnWriteArrayList<>();

    public FakeHub() throws IOException {
        this(0);
    }

    /** On {@code port} (0: any free one). */
    public FakeHub(final int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    /** A public repo with these files (name to content). */
    public FakeHub repo(final String id, final Map<String, String> files) {
        repos.put(id, new Repo(files, null));
        return this;
    }

    /** A gated repo that answers only requests carrying this bearer token. */
    public FakeHub gated(final String id, final Map<String, String> files, final String token) {
        repos.put(id, new Repo(files, token));
        return this;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void answer(final HttpExchange x) throws IOException {
        try (x) {
            final String path = x.getRequestURI().getRawPath();
            final String auth = x.getRequestHeaders().getFirst("Authorization");
            requests.add(path + " " + (auth == null ? "-" : auth));
            if (path.startsWith("/cdn/")) { // where the hub redirects to: content by repo and file
                final String[] p = path.substring(5).split("/", 3);
                final Repo repo = repos.get(p[0] + "/" + p[1]);
                send(x, 200, repo.files.get(p[2]), null);
                return;
            }
            final int resolve = path.indexOf("/resolve/");
            final String id = path.substring(1, Math.max(1, resolve));
            final Repo repo = repos.get(id);
            if (resolve < 0 || repo == null) {
                send(x, 404, "Repository Not Found", "RepoNotFound");
                return;
            }
            if (repo.token != null && !("Bearer " + repo.token).equals(auth)) {
                send(x, auth == null ? 401 : 403, "Access to model " + id + " is restricted", "GatedRepo");
                return;
            }
            final String[] rest = path.substring(resolve + 9).split("/", 2);
            if (!anyRevision && !rest[0].equals("main") && !rest[0].equals(COMMIT)) {
                send(x, 404, "Invalid rev id", "RevisionNotFound");
                return;
            }
            final String content = repo.files.get(rest[1]);
            if (content == null) {
                send(x, 404, "Entry not found", "EntryNotFound");
            } else if (rest[1].equals("tokenizer.json")) {
                x.getResponseHeaders().add("Location", "/cdn/" + id + "/" + rest[1]);
                x.getResponseHeaders().add("X-Linked-Etag", "\"etag-" + Integer.toHexString(content.hashCode()) + "\"");
                send(x, 302, "", null);
            } else {
                send(x, 200, content, null);
            }
        }
    }

    private void send(final HttpExchange x, final int status, final String body, final String errorCode)
            throws IOException {
        x.getResponseHeaders().add("X-Repo-Commit", commit);
        if (errorCode != null) {
            x.getResponseHeaders().add("X-Error-Code", errorCode);
        }
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            x.getResponseBody().write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
