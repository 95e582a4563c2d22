package io.aiperf.engine.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;
import org.apache.hc.core5.http.nio.DataStreamChannel;

/**
 * A request body that says when its last byte has been handed to the connection, so a cancellation delay can start
 * when the request is fully sent (AIPerf's request cancellation). Delegates everything else. Used on one I/O thread.
 */
final class SentSignallingProducer implements AsyncEntityProducer {
    private final AsyncEntityProducer body;
    private final Runnable onSent;

    SentSignallingProducer(final AsyncEntityProducer body, final Runnable onSent) {
        this.body = body;
        this.onSent = onSent;
    }

    @Override
    public void produce(final DataStreamChannel channel) throws IOException {
        body.produce(new DataStreamChannel() {
            @Override
            public void requestOutput() {
                channel.requestOutput();
            }

            @Override
            public int write(final ByteBuffer src) throws IOException {
                return channel.write(src);
            }

            @Override
            public void endStream() throws IOException {
                channel.endStream();
                onSent.run();
            }

            @Override
            public void endStream(final List<? extends Header> trailers) throws IOException {
                channel.endStream(trailers);
                onSent.run();
            }
        });
    }

    @Override
    public boolean isRepeatable() {
        return body.isRepeatable();
    }

    @Override
    public void failed(final Exception cause) {
        body.failed(cause);
    }

    @Override
    public int available() {
        return body.available();
    }

    @Override
    public void releaseResources() {
        body.releaseResources();
    }

    @Override
    public long getContentLength() {
        return body.getContentLength();
    }

    @Override
    public String getContentType() {
        return body.getContentType();
    }

    @Override
    public String getContentEncoding() {
        return body.getContentEncoding();
    }

    @Override
    public boolean isChunked() {
        return body.isChunked();
    }

    @Override
    public Set<String> getTrailerNames() {
        return body.getTrailerNames();
    }
}
