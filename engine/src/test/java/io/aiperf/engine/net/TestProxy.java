package io.aiperf.engine.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small loopback HTTP proxy for tests: absolute-form requests are passed on to their origin (rewritten to origin
 * form), CONNECT opens a tunnel. It records the first request line of every connection, and its
 * {@code Proxy-Authorization} header. One thread per connection; everything stops on close.
 */
public final class TestProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** The first request line of each connection, as received. */
    public final List<String> requestLines = new CopyOnWriteArrayList<>();
    /** The Proxy-Authorization header of each connection's first request (or "-"). */
    public final List<String> authorizations = new CopyOnWriteArrayList<>();

    public TestProxy() throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final Thread accept = new Thread(this::accept, "test-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    public String url() {
        return "http://127.0.0.1:" + listener.getLocalPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                final Socket client = listener.accept();
                sockets.add(client);
                final Thread t = new Thread(() -> serve(client), "test-proxy-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(final Socket client) {
        try (client) {
            final InputStream in = client.getInputStream();
            final String head = readHead(in);
            if (head == null) {
                return;
            }
            final String[] lines = head.split("\r\n");
            final String requestLine = lines[0];
            String auth = "-";
            for (final String l : lines) {
                if (l.toLowerCase(java.util.Locale.ROOT).startsWith("proxy-authorization:")) {
                    auth = l.substring(l.indexOf(':') + 1).trim();
                }
            }
            requestLines.add(requestLine);
            authorizations.add(auth);
            final String[] parts = requestLine.split(" ");
            if (parts[0].equals("CONNECT")) {
                final String[] hostPort = parts[1].split(":");
                final Socket upstream = new Socket(hostPort[0], Integer.parseInt(hostPort[1]));
                sockets.add(upstream);
                client.getOutputStream().write("HTTP/1.1 200 Connection established\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                pipe(in, client.getOutputStream(), upstream);
                return;
            }
            final URI target = URI.create(parts[1]);
            final Socket upstream = new Socket(target.getHost(), target.getPort() < 0 ? 80 : target.getPort());
            sockets.add(upstream);
            final StringBuilder rewritten = new StringBuilder(parts[0]).append(' ')
                    .append(target.getRawPath()).append(target.getRawQuery() == null ? "" : "?" + target.getRawQuery())
                    .append(' ').append(parts[2]).append("\r\n");
            for (int i = 1; i < lines.length; i++) {
                if (!lines[i].toLowerCase(java.util.Locale.ROOT).startsWith("proxy-authorization:")) {
                    rewritten.append(lines[i]).append("\r\n");
                }
            }
            upstream.getOutputStream().write(rewritten.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            // The rest of this connection goes to the same origin (the tests' clients never switch targets).
            pipe(in, client.getOutputStream(), upstream);
        } catch (IOException e) {
            // a test connection ended
        }
    }

    /** Copies both ways until either side ends. */
    private static void pipe(final InputStream fromClient, final OutputStream toClient, final Socket upstream)
            throws IOException {
        final Thread back = new Thread(() -> {
            try {
                upstream.getInputStream().transferTo(toClient);
            } catch (IOException e) {
                // ended
            }
        }, "test-proxy-back");
        back.setDaemon(true);
        back.start();
        try (upstream) {
            fromClient.transferTo(upstream.getOutputStream());
        }
    }

    private static String readHead(final InputStream in) throws IOException {
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

    @Override
    public void close() throws IOException {
        listener.close();
        for (final Socket s : sockets) {
            s.close();
        }
    }
}
