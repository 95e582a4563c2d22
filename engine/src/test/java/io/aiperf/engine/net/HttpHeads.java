package io.aiperf.engine.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reads an HTTP/1.1 message head off a test server's socket. */
public final class HttpHeads {
    private HttpHeads() {
    }

    /** The head up to and including its blank line, or null when the stream ends first. */
    public static String read(final InputStream in) throws IOException {
        final ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            final int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : 0;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }
}
