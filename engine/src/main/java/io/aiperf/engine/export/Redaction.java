package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.config.Secret;
import java.util.Iterator;
import java.util.Map;

/** Removes secrets from a config tree before it is written anywhere. */
public final class Redaction {
    private Redaction() {
    }

    /** A copy of the envelope with the API key and sensitive header values replaced by {@code <redacted>}. */
    public static ObjectNode redactedConfig(final ObjectNode envelope) {
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
                        h.setValue(com.fasterxml.jackson.databind.node.TextNode.valueOf(Secret.REDACTED));
                    }
                }
            }
        }
        return copy;
    }

    /** The command line with the values of secret-bearing flags replaced. */
    public static String redactedCommand(final String[] args) {
        final StringBuilder sb = new StringBuilder("aiperf");
        for (int i = 0; i < args.length; i++) {
            final String a = args[i];
            sb.append(' ');
            if (a.startsWith("--api-key=")) {
                sb.append("--api-key=").append(Secret.REDACTED);
            } else if ((a.equals("--api-key")) && i + 1 < args.length) {
                sb.append(a).append(' ').append(Secret.REDACTED);
                i++;
            } else if ((a.equals("-H") || a.equals("--header")) && i + 1 < args.length) {
                sb.append(a).append(' ').append(quote(redactHeader(args[++i])));
            } else {
                sb.append(quote(a));
            }
        }
        return sb.toString();
    }

    private static String redactHeader(final String spec) {
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
        return s.matches("[A-Za-z0-9_./:=,@+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
