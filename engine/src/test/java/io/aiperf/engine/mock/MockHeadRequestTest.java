package io.aiperf.engine.mock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A HEAD request gets the head alone, so the next answer on the same kept-alive connection is read as what it is:
 * upstream AIPerf checks that a {@code /metrics} URL is reachable with HEAD and then GET on one connection, and a
 * body after the HEAD answer made it take the mock's metrics for unreachable.
 */
class MockHeadRequestTest {
    @Test
    void aHeadAnswerHasNoBodyAndTheNextAnswerOnTheConnectionFollowsIt() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast());
             Socket s = new Socket("127.0.0.1", URI.create(mock.url()).getPort())) {
            s.setSoTimeout(30_000); // a guard only: the answers come at once
            final OutputStream out = s.getOutputStream();
            out.write(("HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            final InputStream in = s.getInputStream();
            final ByteArrayOutputStream got = new ByteArrayOutputStream();
            final byte[] buf = new byte[8192];
            // read until the second answer's head and its body (Content-Length) are in
            while (true) {
                final String text = got.toString(StandardCharsets.ISO_8859_1);
                final int second = text.indexOf("HTTP/1.1", 1);
                if (second > 0) {
                    final int headEnd = text.indexOf("\r\n\r\n", second);
                    final java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: (\\d+)")
                            .matcher(text.substring(second));
                    if (headEnd > 0 && m.find() && text.length() >= headEnd + 4 + Integer.parseInt(m.group(1))) {
                        break;
                    }
                }
                final int n = in.read(buf);
                assertThat(n).as("the server answered both requests before closing").isPositive();
                got.write(buf, 0, n);
            }
            final String text = got.toString(StandardCharsets.ISO_8859_1);
            assertThat(text).startsWith("HTTP/1.1 200");
            final int firstEnd = text.indexOf("\r\n\r\n") + 4;
            assertThat(text.substring(0, firstEnd)).containsIgnoringCase("content-length:");
            assertThat(text.substring(firstEnd)).as("no body after the HEAD answer's head").startsWith("HTTP/1.1 200");
            assertThat(text).doesNotContain("# HELP");
        }
    }
}
