package io.aiperf.jenkins;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The engine's own mock server, run from the jar this plugin bundles, on a free loopback port. */
final class MockServerProcess implements AutoCloseable {
    private final Process process;
    private final int port;

    private MockServerProcess(final Process process, final int port) {
        this.process = process;
        this.port = port;
    }

    /** @param args further mock-server flags, e.g. {@code --fault /stop_profile=status:500} */
    static MockServerProcess start(final int ttftMillis, final String... args) throws Exception {
        final int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", engineJar().getPath(), "mock-server", "--host", "127.0.0.1", "-p", Integer.toString(port),
                "-t", Integer.toString(ttftMillis), "--itl", "1"));
        cmd.addAll(List.of(args));
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline && p.isAlive()) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return new MockServerProcess(p, port);
            } catch (IOException notYet) {
                Thread.onSpinWait();
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("mock server did not start on port " + port);
    }

    static File engineJar() throws URISyntaxException {
        return new File(MockServerProcess.class.getResource("/io/aiperf/jenkins/engine/aiperf.jar").toURI());
    }

    /** How many inference requests the server has received (its /admin/control-state route). */
    long inferenceRequests() throws IOException {
        final java.net.URL state = java.net.URI.create(url() + "/admin/control-state").toURL();
        try (java.io.InputStream in = state.openStream()) {
            final String json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            final java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"inference_requests\"\\s*:\\s*(\\d+)")
                    .matcher(json);
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        }
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
