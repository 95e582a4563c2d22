package io.aiperf.engine.run;

import io.aiperf.engine.client.ProbeClient;
import java.net.URI;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * This host's clock against the server's (src-docs/distributed.md): the {@code Date} header of one answer, against
 * the middle of the request's round trip here. The header has whole seconds, so the figure is good to about half a
 * second: enough to see a shard whose clock is off by seconds, which would start it apart from the others.
 */
final class ClockOffset {
    /** Only the head matters; a longer body is not read. */
    private static final int MAX_BYTES = 1024 * 1024;

    private ClockOffset() {
    }

    /** The server's clock minus this host's in ms, or null when the server did not answer or sent no Date. */
    static Double measure(final ProbeClient http, final URI uri, final Map<String, String> headers) {
        try {
            final long before = System.currentTimeMillis();
            final ProbeClient.Response response = http.get(uri, headers, 2, MAX_BYTES);
            final long after = System.currentTimeMillis();
            final String date = response.header("Date");
            if (date == null) {
                return null;
            }
            final long server = ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
            // The header is truncated to the second: its middle is the best guess of when the server wrote it.
            return (double) (server + 500 - (before + after) / 2);
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }
}
