package io.aiperf.engine.client;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;

/**
 * The headers every request of a cell carries, in the client's own vocabulary, so the packages that build and send
 * requests ({@code run}) never name HttpClient's types: only the client turns them into wire headers.
 */
public final class RequestHeaders {
    private final Header[] wire;

    private RequestHeaders(final Header[] wire) {
        this.wire = wire;
    }

    /** Headers by name, in the order given. */
    public static RequestHeaders of(final Map<String, String> byName) {
        return new RequestHeaders(byName.entrySet().stream().map(e -> new BasicHeader(e.getKey(), e.getValue()))
                .toArray(Header[]::new));
    }

    /** The headers by name, in order (a name given twice keeps its first value). */
    public Map<String, String> asMap() {
        final Map<String, String> out = new LinkedHashMap<>();
        for (final Header h : wire) {
            out.putIfAbsent(h.getName(), h.getValue());
        }
        return out;
    }

    /** The same headers as HttpClient's, shared, never to be modified. */
    Header[] wire() {
        return wire;
    }
}
