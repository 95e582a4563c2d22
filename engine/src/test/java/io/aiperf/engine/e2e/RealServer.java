package io.aiperf.engine.e2e;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real inference server started as a child process on a free loopback port, up once its health route answers
 * 200, stopped (and its children with it) on close. Its output goes to a log file that a failed start quotes, deleted
 * on close.
 */
final class RealServer implements AutoCloseable {
    private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);
    private final Process process;
    private final Path log;
    private final int port;

    private RealServer(final Process process, final Path log, final int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts {@code command}, in which {@code {port}} stands for the chosen port, and waits until
     * {@code healthPath} answers 200 or the process ends (then it throws with the log).
     */
    static RealServer start(final List<String> command, final String healthPath, final Path log) throws IOException {
        final int port = freePort();
        final List<String> cmd = new ArrayList<>();
        for (final String part : command) {
            cmd.add(part.replace("{port}", String.valueOf(port)));
        }
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        final RealServer server = new RealServer(p, log, port);
        final long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
        while (!server.healthy(healthPath)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                server.close();
                throw new IOException("the server did not come up on port " + port + ": " + server.log());
            }
            try {
                p.waitFor(50, TimeUnit.MILLISECONDS); // returns early if it dies
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                server.close();
                throw new IOException("interrupted while the server started", e);
            }
        }
        return server;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    String log() throws IOException {
        final String text = Files.readString(log);
        return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
    }

    private boolean healthy(final String path) {
        try {
            final HttpURLConnection c = (HttpURLConnection) URI.create(url() + path).toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(2000);
            try {
                return c.getResponseCode() == 200;
            } finally {
                c.disconnect();
            }
        } catch (IOException notYet) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // a temporary file: the machine's cleaning takes it
        }
    }
}
