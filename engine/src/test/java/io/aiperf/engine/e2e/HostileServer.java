package io.aiperf.engine.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback server that misbehaves as an attacker's would: it answers every request by writing the given bytes
 * one at a time, {@code gapMillis} apart (a trickle), or never answers at all ({@code bytes} empty). Bounded:
 * each connection writes at most its bytes once.
 */
final class HostileServer implements AutoCloseable {
    private final ServerSocket socket;
    private final AtomicInteger requests = new AtomicInteger();
    private final Thread acceptor;

    HostileServer(final String response, final long gapMillis) throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final byte[] bytes = response.getBytes(StandardCharsets.ISO_8859_1);
        acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    final Socket s = socket.accept();
                    final Thread t = new Thread(() -> serve(s, bytes, gapMillis), "hostile-conn");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "hostile-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void serve(final Socket s, final byte[] bytes, final long gapMillis) {
        try (s) {
            final InputStream in = s.getInputStream();
            final byte[] buf = new byte[4096];
            in.read(buf); // the request head; its content does not matter here
            requests.incrementAndGet();
            final OutputStream out = s.getOutputStream();
            for (final byte b : bytes) {
                out.write(b);
                out.flush();
                Thread.sleep(gapMillis);
            }
            if (bytes.length == 0) {
                while (in.read(buf) >= 0) {
                    Thread.onSpinWait(); // hold the connection open, never answer
                }
            }
        } catch (IOException | InterruptedException gone) {
            // the client hung up: that is the point
        }
    }

    int requests() {
        return requests.get();
    }

    String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
