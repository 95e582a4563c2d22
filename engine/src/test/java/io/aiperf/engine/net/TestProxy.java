package io.aiperf.engine.net;

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
 * form), CONNECT opens a tunnel. It records every request line it reads (a tunnel's CONNECT only), and each one's
 * {@code Proxy-Authorization} header. One thread per connection; everything stops on close.
 */
public final class TestProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** Every request line read, as received. */
    public final List<String> requestLines = new CopyOnWriteArrayList<>();
    /** The whole head of each of those requests. */
    public final List<String> heads = new CopyOnWriteArrayList<>();
    /** The Proxy-Authorization header of each of those requests (or "-"). */
    public final List<String> authorizations = new CopyOnWriteArrayList<>();

    /** The Proxy-Authorization value required, or null for none: a request without it gets a 407 challenge. */
    private final String required;

    public TestProxy() throws IOException {
        this(null);
    }

    /** @param required the Proxy-Authorization value a request must carry, or null */
    public TestProxy(final String required) throws IOException {
        this.required = required;
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
            final String head = HttpHeads.read(in);
            if (head == null) {
                return;
            }
            final String[] lines = head.split("\r\n");
            final String requestLine = lines[0];
            requestLines.add(requestLine);
            heads.add(head);
            authorizations.add(authorization(lines));
            if (required != null && !required.equals(authorization(lines))) {
                client.getOutputStream().write(("HTTP/1.1 407 Proxy Authentication Required\r\n"
                        + "Proxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                return;
            }
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
            // Absolute form: every request of the connection is recorded, rewritten to origin form and passed on
            // (the tests' clients keep one origin per connection).
            final URI first = URI.create(parts[1]);
            final Socket upstream = new Socket(first.getHost(), first.getPort() < 0 ? 80 : first.getPort());
            sockets.add(upstream);
            final Thread back = new Thread(() -> {
                try {
                    upstream.getInputStream().transferTo(client.getOutputStream());
                } catch (IOException e) {
                    // ended
                }
            }, "test-proxy-back");
            back.setDaemon(true);
            back.start();
            try (upstream) {
                String[] request = lines;
                while (true) {
                    final String[] line = request[0].split(" ");
                    final URI target = URI.create(line[1]);
                    final StringBuilder rewritten = new StringBuilder(line[0]).append(' ').append(target.getRawPath())
                            .append(target.getRawQuery() == null ? "" : "?" + target.getRawQuery())
                            .append(' ').append(line[2]).append("\r\n");
                    int length = 0;
                    for (int i = 1; i < request.length; i++) {
                        final String lower = request[i].toLowerCase(java.util.Locale.ROOT);
                        if (lower.startsWith("content-length:")) {
                            length = Integer.parseInt(request[i].substring(15).trim());
                        }
                        if (!lower.startsWith("proxy-authorization:")) {
                            rewritten.append(request[i]).append("\r\n");
                        }
                    }
                    final OutputStream up = upstream.getOutputStream();
                    up.write(rewritten.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
                    up.write(in.readNBytes(length));
                    final String next = HttpHeads.read(in);
                    if (next == null) {
                        return;
                    }
                    request = next.split("\r\n");
                    requestLines.add(request[0]);
                    heads.add(next);
                    authorizations.add(authorization(request));
                }
            }
        } catch (IOException e) {
            // a test connection ended
        }
    }

    private static String authorization(final String[] lines) {
        for (final String l : lines) {
            if (l.toLowerCase(java.util.Locale.ROOT).startsWith("proxy-authorization:")) {
                return l.substring(l.indexOf(':') + 1).trim();
            }
        }
        return "-";
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

    @Override
    public void close() throws IOException {
        listener.close();
        for (final Socket s : sockets) {
            s.close();
        }
    }
}
