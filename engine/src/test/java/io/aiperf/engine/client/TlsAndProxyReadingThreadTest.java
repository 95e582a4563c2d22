package io.aiperf.engine.client;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every case of {@link TlsAndProxyTest} again with the reading thread always on: a TLS connection's records and a
 * tunnel's handshake are handed to the loop as events (the reading thread reads plain connections only), and they
 * must still work.
 */
class TlsAndProxyReadingThreadTest extends TlsAndProxyTest {
    @BeforeAll
    static void readingThreadAlways() {
        System.setProperty(ReadingThread.PROPERTY, "always");
    }

    @AfterAll
    static void readingThreadDefault() {
        System.clearProperty(ReadingThread.PROPERTY);
    }
}
