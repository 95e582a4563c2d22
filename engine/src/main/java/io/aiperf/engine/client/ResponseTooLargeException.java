package io.aiperf.engine.client;

import java.io.IOException;

/** A response or one of its SSE events exceeded its bound; the request fails and its connection is closed. */
public final class ResponseTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    public ResponseTooLargeException(final String message) {
        super(message);
    }
}
