package io.aiperf.engine.redact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.ConfigDocument;
import io.aiperf.engine.config.Secret;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place secrets are taken out of what the engine writes or prints: the API key, the values of sensitive
 * headers and query parameters ({@link SensitiveNames}), any header or query value filled from an environment
 * variable, and the user-info of URLs, wherever they appear (config, command line, a server's error body echoed
 * into a record, a message), raw and JSON-escaped. Every export file and the console go through it. Immutable and
 * thread-safe.
 */
public final class Redactor {
    private static final Pattern USER_INFO = Pattern.compile("(\\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\\s'\"]+@");
    private static final Pattern HEADER_FLAG = Pattern.compile("^(-H|--header)(=?)(.*)$", Pattern.DOTALL);
    private static final Pattern KEY_FLAG = Pattern.compile("^(--api-key)(=)(.*)$", Pattern.DOTALL);
    private final List<String> secrets;

    private Redactor(final Set<String> secrets) {
        final List<String> sorted = new ArrayList<>(secrets);
        sorted.removeIf(s -> s == null || s.isBlank());
        sorted.sort(Comparator.comparingInt(String::length).reversed()); // a longer secret wins over its prefix
        this.secrets = List.copyOf(sorted);
    }

    /** The shortest environment value taken for a secret when a header or query value equals it. */
    private static final int MIN_ENV_SECRET = 8;
    /**
     * The shortest value of a header or parameter whose name looks sensitive that is redacted everywhere: shorter
     * ones ({@code X-Session-Affinity: 1}) would blank every such digit in the exports. Their config entries are
     * redacted whatever their length.
     */
    private static final int MIN_NAMED_SECRET = 4;

    /** A redactor for these values (and URL user-info, always). */
    public static Redactor of(final List<String> secrets) {
        return new Redactor(withEscapedForms(new LinkedHashSet<>(secrets)));
    }

    /** A redactor for a run's secrets, with this process's environment. */
    public static Redactor of(final BenchmarkConfig config) {
        return of(config, System.getenv());
    }

    /**
     * A redactor for a run's secrets: its API key, its sensitive header and query parameter values, every header
     * and query value that an environment variable supplied (through {@code ${VAR}} in YAML or the shell), and its
     * URLs' user-info.
     */
    public static Redactor of(final BenchmarkConfig config, final Map<String, String> env) {
        final Set<String> secrets = new LinkedHashSet<>();
        final Set<String> envValues = new java.util.HashSet<>();
        env.values().stream().filter(v -> v != null && v.length() >= MIN_ENV_SECRET).forEach(envValues::add);
        final Secret key = config.endpoint().apiKey();
        if (key != null) {
            secrets.add(key.reveal());
        }
        config.endpoint().headers().forEach((name, value) -> {
            final String bare = value.regionMatches(true, 0, "Bearer ", 0, 7) ? value.substring(7).trim() : value;
            if ((SensitiveNames.header(name) && bare.length() >= MIN_NAMED_SECRET) || envValues.contains(value)
                    || envValues.contains(bare)) {
                secrets.add(value);
                secrets.add(bare);
            }
        });
        for (final String url : urls(config)) {
            urlSecrets(url, envValues, secrets);
        }
        // The hub's address and the proxies the environment names (the hub is reached through them too), and the
        // hub's token: each is printed in a message when the hub or a proxy fails.
        for (final String variable : ENV_URLS) {
            final String url = env.get(variable);
            if (url != null) {
                urlSecrets(url, envValues, secrets);
            }
        }
        final String hfToken = env.get("HF_TOKEN");
        if (hfToken != null && hfToken.strip().length() >= MIN_NAMED_SECRET) {
            secrets.add(hfToken.strip());
        }
        // Proxy credentials, from --proxy or the environment, in every form they are sent in.
        final io.aiperf.engine.config.ProxyConfig proxies = config.endpoint().proxy();
        for (final io.aiperf.engine.config.ProxyConfig.Proxy p : new io.aiperf.engine.config.ProxyConfig.Proxy[] {
            proxies.http(), proxies.https()}) {
            if (p != null && p.password() != null) {
                if (p.password().reveal().length() >= MIN_NAMED_SECRET) { // shorter: masked in URLs by USER_INFO
                    secrets.add(p.password().reveal());
                }
                if (p.user().length() + 1 + p.password().reveal().length() >= MIN_NAMED_SECRET) {
                    secrets.add(p.user() + ":" + p.password().reveal());
                }
                secrets.add(p.authorization().substring("Basic ".length()));
            }
        }
        return new Redactor(withEscapedForms(secrets));
    }

    /**
     * Every URL and hook path the run is given, not only the inference URLs: a metrics exporter, an OTLP collector or
     * a hook may be reached with user-info or a token in its query, and each is printed, logged and exported.
     */
    private static List<String> urls(final BenchmarkConfig config) {
        final io.aiperf.engine.config.EndpointConfig e = config.endpoint();
        final List<String> urls = new ArrayList<>(e.urls());
        if (e.serverMetrics() != null) {
            urls.addAll(e.serverMetrics().urls());
        }
        if (e.gpuTelemetry() != null) {
            urls.addAll(e.gpuTelemetry());
        }
        if (config.artifacts() != null && config.artifacts().otel() != null) {
            urls.add(config.artifacts().otel().url());
        }
        if (e.resetKvCache() != null) {
            urls.add(e.resetKvCache().path());
        }
        if (e.serverProfiler() != null) {
            urls.add(e.serverProfiler().startPath());
            urls.add(e.serverProfiler().stopPath());
        }
        urls.removeIf(java.util.Objects::isNull);
        return urls;
    }

    /** The environment variables that hold a URL the engine may print: the hub's, and the proxies'. */
    private static final List<String> ENV_URLS = List.of("HF_ENDPOINT", "HTTP_PROXY", "http_proxy", "HTTPS_PROXY",
            "https_proxy", "ALL_PROXY", "all_proxy");

    /**
     * A URL as it may be printed, logged or exported: its user-info and the values of its sensitive query parameters
     * replaced by {@code <redacted>}, whatever redactor is at hand (the hub's address, a proxy's).
     */
    public static String url(final String url) {
        if (url == null) {
            return null;
        }
        final Set<String> secrets = new LinkedHashSet<>();
        urlSecrets(url, Set.of(), secrets);
        return new Redactor(secrets).text(url);
    }

    /** A URL's user-info (and its password alone) and its sensitive or environment-filled query values. */
    private static void urlSecrets(final String url, final Set<String> envValues, final Set<String> into) {
        final Matcher m = Pattern.compile("://([^/@\\s]+)@").matcher(url);
        if (m.find()) {
            // USER_INFO masks them in a URL whatever their length; alone, a value as short as "1" would mask every
            // digit of every number (and leave a JSON export unreadable)
            if (m.group(1).length() >= MIN_NAMED_SECRET) {
                into.add(m.group(1));
            }
            final int colon = m.group(1).indexOf(':');
            if (colon >= 0 && m.group(1).length() - colon - 1 >= MIN_NAMED_SECRET) {
                into.add(m.group(1).substring(colon + 1)); // the password alone
            }
        }
        querySecrets(url, envValues, into);
    }

    /** The values of a URL's sensitive or environment-filled query parameters, raw and percent-decoded. */
    private static void querySecrets(final String url, final Set<String> envValues, final Set<String> into) {
        final int q = url.indexOf('?');
        if (q < 0) {
            return;
        }
        final int hash = url.indexOf('#', q);
        for (final String pair : url.substring(q + 1, hash < 0 ? url.length() : hash).split("&")) {
            final int eq = pair.indexOf('=');
            if (eq <= 0 || eq == pair.length() - 1) {
                continue;
            }
            final String name = pair.substring(0, eq);
            final String raw = pair.substring(eq + 1);
            String decoded = raw;
            try {
                decoded = java.net.URLDecoder.decode(raw, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                // not percent-encoded text: the raw form is the secret
            }
            if ((SensitiveNames.queryParameter(name) && decoded.length() >= MIN_NAMED_SECRET)
                    || envValues.contains(raw) || envValues.contains(decoded)) {
                into.add(raw);
                into.add(decoded);
            }
        }
    }

    /**
     * Each secret and its JSON-escaped forms (once and twice): a server that echoes a key holding {@code "} or {@code \} into a JSON
     * body writes it escaped, and the raw form would then never be found.
     */
    private static Set<String> withEscapedForms(final Set<String> secrets) {
        final Set<String> out = new LinkedHashSet<>();
        for (final String s : secrets) {
            if (s == null || s.isBlank()) {
                continue;
            }
            out.add(s);
            final String once = new String(com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance().quoteAsString(s));
            out.add(once);
            // a JSON body kept as a string inside a JSON record is escaped twice
            out.add(new String(com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance().quoteAsString(once)));
        }
        return out;
    }

    /** A redactor for this one's secrets and the other's: a command that runs two configs (compare) hides both. */
    public Redactor and(final Redactor other) {
        final Set<String> both = new LinkedHashSet<>(secrets);
        both.addAll(other.secrets);
        return new Redactor(both);
    }

    /** The text with every secret and every URL's user-info replaced by {@code <redacted>}. */
    public String text(final String s) {
        if (s == null) {
            return null;
        }
        String out = USER_INFO.matcher(s).replaceAll("$1" + Matcher.quoteReplacement(Secret.REDACTED) + "@");
        for (final String secret : secrets) {
            out = out.replace(secret, Secret.REDACTED);
        }
        return out;
    }

    /** A copy of a config tree with the API key, sensitive header values and every secret in any string redacted. */
    public ObjectNode config(final ObjectNode envelope) {
        return configInPlace(envelope.deepCopy());
    }

    /** A config's document ({@link BenchmarkConfig#effective}, {@link BenchmarkConfig#given}) as it may be written. */
    public ObjectNode config(final ConfigDocument document) {
        return configInPlace(document.copy());
    }

    private ObjectNode configInPlace(final ObjectNode copy) {
        final JsonNode endpoint = copy.path("benchmark").path("endpoint");
        if (endpoint.isObject()) {
            final ObjectNode e = (ObjectNode) endpoint;
            if (e.hasNonNull("api_key")) {
                e.put("api_key", Secret.REDACTED);
            }
            final JsonNode headers = e.get("headers");
            if (headers != null && headers.isObject()) {
                final Iterator<Map.Entry<String, JsonNode>> it = headers.properties().iterator();
                while (it.hasNext()) {
                    final Map.Entry<String, JsonNode> h = it.next();
                    if (SensitiveNames.header(h.getKey())) {
                        h.setValue(TextNode.valueOf(Secret.REDACTED));
                    }
                }
            }
        }
        return (ObjectNode) stringsInPlace(copy);
    }

    /** A copy of a JSON tree with every secret in its strings redacted; its numbers are left as they are. */
    public JsonNode strings(final JsonNode tree) {
        return stringsInPlace(tree.deepCopy());
    }

    private JsonNode stringsInPlace(final JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.properties().forEach(e -> e.setValue(stringsInPlace(e.getValue())));
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                a.set(i, stringsInPlace(a.get(i)));
            }
        } else if (node.isTextual()) {
            return TextNode.valueOf(text(node.asText()));
        }
        return node;
    }

    /**
     * The command line as typed, with the values of {@code --api-key} and of sensitive headers replaced, in
     * every form picocli accepts ({@code --api-key K}, {@code --api-key=K}, {@code -H V}, {@code -HV},
     * {@code -H=V}, {@code --header=V}), and then every known secret anywhere.
     */
    public String command(final String[] args) {
        final StringBuilder sb = new StringBuilder("aiperf");
        for (int i = 0; i < args.length; i++) {
            final String a = args[i];
            sb.append(' ');
            final Matcher key = KEY_FLAG.matcher(a);
            final Matcher header = HEADER_FLAG.matcher(a);
            if (a.equals("--api-key") && i + 1 < args.length) {
                sb.append(a).append(' ').append(Secret.REDACTED);
                i++;
            } else if (key.matches()) {
                sb.append("--api-key=").append(Secret.REDACTED);
            } else if ((a.equals("-H") || a.equals("--header")) && i + 1 < args.length) {
                sb.append(a).append(' ').append(quote(text(header(args[++i]))));
            } else if (header.matches() && !a.equals("-H") && !a.equals("--header")) {
                sb.append(header.group(1)).append(header.group(2)).append(quote(text(header(header.group(3)))));
            } else {
                sb.append(quote(text(a)));
            }
        }
        return sb.toString();
    }

    private static String header(final String spec) {
        if (spec.trim().startsWith("{")) {
            return Secret.REDACTED; // JSON form: may hold any header
        }
        final int colon = spec.indexOf(':');
        if (colon > 0 && SensitiveNames.header(spec.substring(0, colon).trim())) {
            return spec.substring(0, colon) + ":" + Secret.REDACTED;
        }
        return spec;
    }

    private static String quote(final String s) {
        return s.matches("[A-Za-z0-9_./:=,@+<>-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    /** An export file's bytes on their way to disk, with every secret replaced. */
    public OutputStream file(final OutputStream out) {
        return secrets.isEmpty() ? out : new MaskingOutputStream(out, secrets, Secret.REDACTED);
    }

    /** A log file's bytes: control characters from a server's text shown as visible escapes, as on the console. */
    public static OutputStream escapingControls(final OutputStream out) {
        return new ControlCharEscaper(out);
    }

    /**
     * A console stream: secrets replaced, and control characters a server may have put into a message (escape
     * sequences that retitle, clear or recolour a terminal) shown as visible escapes.
     */
    public PrintStream console(final OutputStream terminal) {
        final OutputStream escaped = new ControlCharEscaper(terminal);
        return new PrintStream(secrets.isEmpty() ? escaped
                : new MaskingOutputStream(escaped, secrets, Secret.REDACTED), true, StandardCharsets.UTF_8);
    }
}
