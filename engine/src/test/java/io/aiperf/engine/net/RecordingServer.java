package io.aiperf.engine.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback server for tests of what the engine puts on the wire: it records the head of every request (one per
 * connection) and writes the answer its {@link Answer} gives, then closes the connection.
 */
public final class RecordingServer implements AutoCloseable {
    /** Writes one answer; an {@link IOException} means the client hung up. */
    @FunctionalInterface
    public interface Answer {
        void write(OutputStream out) throws IOException;
    }

    private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    /** The request heads, in arrival order, up to and including the blank line. */
    public final List<String> heads = new CopyOnWriteArrayList<>();

    public RecordingServer(final Answer answer) throws IOException {
        final Thread t = new Thread(() -> {
            while (!listener.isClosed()) {
                try (Socket s = listener.accept()) {
                    heads.add(head(s.getInputStream()));
                    answer.write(s.getOutputStream());
                } catch (IOException e) {
                    // closed, or the client hung up
                }
            }
        }, "recording-server");
        t.setDaemon(true);
        t.start();
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String origin() {
        return "http://127.0.0.1:" + listener.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }

    private static String head(final InputStream in) throws IOException {
        final StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            sb.append((char) b);
            if (sb.length() >= 4 && sb.lastIndexOf("\r\n\r\n") == sb.length() - 4) {
                break;
            }
        }
        return sb.toString();
    }
}
