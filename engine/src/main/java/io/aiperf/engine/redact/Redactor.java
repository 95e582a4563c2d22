package io.aiperf.engine.redact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.config.BenchmarkConfig;
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
 * headers and the user-info of URLs, wherever they appear (config, command line, a server's error body echoed into
 * a record, a message). Every export file and the console go through it. Immutable and thread-safe.
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

    /** A redactor for these values (and URL user-info, always). */
    public static Redactor of(final List<String> secrets) {
        return new Redactor(new LinkedHashSet<>(secrets));
    }

    /** A redactor for a run's secrets: its API key, its sensitive header values and its URLs' user-info. */
    public static Redactor of(final BenchmarkConfig config) {
        final Set<String> secrets = new LinkedHashSet<>();
        final Secret key = config.endpoint().apiKey();
        if (key != null) {
            secrets.add(key.reveal());
        }
        config.endpoint().headers().forEach((name, value) -> {
            if (RequestFactory.isSensitive(name)) {
                secrets.add(value);
                if (value.regionMatches(true, 0, "Bearer ", 0, 7)) {
                    secrets.add(value.substring(7).trim());
                }
            }
        });
        for (final String url : config.endpoint().urls()) {
            final Matcher m = Pattern.compile("://([^/@\\s]+)@").matcher(url);
            if (m.find()) {
                secrets.add(m.group(1));
                final int colon = m.group(1).indexOf(':');
                if (colon >= 0 && colon + 1 < m.group(1).length()) {
                    secrets.add(m.group(1).substring(colon + 1)); // the password alone
                }
            }
        }
        return new Redactor(secrets);
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
        final ObjectNode copy = envelope.deepCopy();
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
                    if (RequestFactory.isSensitive(h.getKey())) {
                        h.setValue(TextNode.valueOf(Secret.REDACTED));
                    }
                }
            }
        }
        return (ObjectNode) strings(copy);
    }

    private JsonNode strings(final JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.properties().forEach(e -> e.setValue(strings(e.getValue())));
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                a.set(i, strings(a.get(i)));
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
        if (colon > 0 && RequestFactory.isSensitive(spec.substring(0, colon).trim())) {
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
