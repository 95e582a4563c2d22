package io.aiperf.engine.client;

import java.net.URI;
import org.apache.hc.core5.http.Header;

/** One ready-to-send inference request: target, headers (without per-request ids) and the exact body. */
public record PreparedRequest(URI uri, Header[] headers, byte[] body, boolean streaming) {
}
