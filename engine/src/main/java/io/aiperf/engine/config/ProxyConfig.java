package io.aiperf.engine.config;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which HTTP proxy carries the engine's traffic to a target (src-docs/proxies-and-tls.md): the {@code proxy} option
 * for every scheme, else {@code HTTP_PROXY} / {@code HTTPS_PROXY} (or their lower-case forms) by the target's scheme,
 * and never for a host that {@code NO_PROXY} names. Credentials in a proxy URL are kept as a {@link Secret}.
 *
 * @param http the proxy for http targets, or null for none
 * @param https the proxy for https targets, or null for none
 * @param noProxy host names, domain suffixes and {@code *} that are reached directly (lower case)
 */
public record ProxyConfig(Proxy http, Proxy https, List<String> noProxy) {
    public static final ProxyConfig NONE = new ProxyConfig(null, null, List.of());

    /**
     * One proxy: requests reach it over plain TCP; http requests go to it in absolute form, https ones through a
     * CONNECT tunnel.
     *
     * @param user the user of the proxy URL's user-info, or null
     * @param password its password, or null
     */
    public record Proxy(String host, int port, String user, Secret password) {
        /** Where it is, without credentials (for logs and exports). */
        public String display() {
            return "http://" + host + ":" + port;
        }

        /** The {@code Proxy-Authorization} value (Basic), or null when the URL had no user. */
        public String authorization() {
            if (user == null) {
                return null;
            }
            final String pair = user + ":" + (password == null ? "" : password.reveal());
            return "Basic " + java.util.Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String toString() {
            return display();
        }
    }

    /**
     * @param option the {@code proxy} option: a URL, {@code none} (no proxy, whatever the environment says) or null
     * @param env the process environment
     * @throws ConfigException naming the option or variable when a proxy URL is not an {@code http://host[:port]}
     */
    public static ProxyConfig of(final String option, final Map<String, String> env) {
        final List<String> noProxy = noProxy(variable(env, "NO_PROXY"));
        if (option != null && !option.isBlank()) {
            if (option.trim().equalsIgnoreCase("none")) {
                return NONE;
            }
            final Proxy p = parse("endpoint.proxy", option);
            return new ProxyConfig(p, p, noProxy);
        }
        final String http = variable(env, "HTTP_PROXY");
        final String https = variable(env, "HTTPS_PROXY");
        return new ProxyConfig(http == null ? null : parse(name(env, "HTTP_PROXY"), http),
                https == null ? null : parse(name(env, "HTTPS_PROXY"), https), noProxy);
    }

    /** The proxy for {@code target}, or null when it is reached directly. */
    public Proxy forTarget(final URI target) {
        final Proxy p = "https".equalsIgnoreCase(target.getScheme()) ? https : http;
        return p == null || bypassed(target) ? null : p;
    }

    /** Whether any target may go through a proxy. */
    public boolean any() {
        return http != null || https != null;
    }

    private boolean bypassed(final URI target) {
        final String host = unbracket(target.getHost()).toLowerCase(Locale.ROOT);
        final int port = target.getPort() >= 0 ? target.getPort()
                : "https".equalsIgnoreCase(target.getScheme()) ? 443 : 80;
        for (final String entry : noProxy) {
            if (entry.equals("*")) {
                return true;
            }
            String name = entry;
            final int colon = entry.lastIndexOf(':');
            if (colon > 0 && entry.indexOf(':') == colon && entry.substring(colon + 1).matches("\\d+")) {
                if (Integer.parseInt(entry.substring(colon + 1)) != port) {
                    continue;
                }
                name = entry.substring(0, colon);
            }
            name = unbracket(name.startsWith("*.") ? name.substring(1) : name);
            final String bare = name.startsWith(".") ? name.substring(1) : name;
            if (host.equals(bare) || host.endsWith("." + bare)) {
                return true;
            }
        }
        return false;
    }

    private static String unbracket(final String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static List<String> noProxy(final String value) {
        final List<String> out = new ArrayList<>();
        if (value != null) {
            for (final String part : value.split(",")) {
                if (!part.isBlank()) {
                    out.add(part.trim().toLowerCase(Locale.ROOT));
                }
            }
        }
        return List.copyOf(out);
    }

    /** The upper-case variable, else the lower-case one; blank counts as unset. */
    private static String variable(final Map<String, String> env, final String upper) {
        final String v = env.get(upper);
        if (v != null && !v.isBlank()) {
            return v.trim();
        }
        final String lower = env.get(upper.toLowerCase(Locale.ROOT));
        return lower == null || lower.isBlank() ? null : lower.trim();
    }

    private static String name(final Map<String, String> env, final String upper) {
        final String v = env.get(upper);
        return v != null && !v.isBlank() ? upper : upper.toLowerCase(Locale.ROOT);
    }

    private static Proxy parse(final String field, final String text) {
        final String withScheme = text.contains("://") ? text : "http://" + text;
        final URI uri;
        try {
            uri = new URI(withScheme);
        } catch (java.net.URISyntaxException e) {
            throw new ConfigException(field, "not a proxy URL (expected http://[user:password@]host[:port])");
        }
        if (!"http".equalsIgnoreCase(uri.getScheme())) {
            throw new ConfigException(field, "only http:// proxies are supported (https targets go through a CONNECT "
                    + "tunnel on them), not " + uri.getScheme() + "://");
        }
        if (uri.getHost() == null) {
            throw new ConfigException(field, "the proxy URL has no host (expected http://[user:password@]host[:port])");
        }
        final String info = uri.getRawUserInfo();
        String user = null;
        Secret password = null;
        if (info != null) {
            final int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon));
            password = colon < 0 ? null : new Secret(decode(info.substring(colon + 1)));
        }
        return new Proxy(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort(), user, password);
    }

    /** Percent-decoding of user-info, where a {@code +} is itself. */
    private static String decode(final String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
