package io.aiperf.engine.profile;

import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * {@code --mock}: the embedded mock server a profile benchmarks (TTFT 20 ms, ITL 5 ms), from before the config
 * loads until the run ends, and whether it was too busy to measure the client. Without {@code --mock} it does
 * nothing.
 */
final class EmbeddedMock implements AutoCloseable {
    private final MockServer server;
    private long[] busyBefore;

    private EmbeddedMock(final MockServer server) {
        this.server = server;
    }

    /** Starts the mock, when asked for, and points the configs loaded from now on at it. */
    static EmbeddedMock start(final ProfileRequest.Mock mock, final ConfigSource configs, final RunLog.Level level,
                              final PrintStream err) throws IOException {
        if (mock == null) {
            return new EmbeddedMock(null);
        }
        final MockServer server = MockServer.start(new MockServerConfig("127.0.0.1", 0, 20, 5, 0, 0, 0,
                mock.apiKey(), 0, List.of(), mock.maxSlots()));
        configs.useMock(server.url());
        if (level.compareTo(RunLog.Level.INFO) <= 0) {
            err.println("mock server listening on " + server.url());
        }
        return new EmbeddedMock(server);
    }

    /** The mock caps every reply: a longer output would measure something else than asked, for hours. */
    void checkServes(final BenchmarkConfig config) {
        final Double osl = config.dataset().oslMean();
        if (server != null && osl != null && osl > MockServer.MAX_REPLY_TOKENS) {
            throw new ConfigException("--osl", String.format(Locale.ROOT, "%.0f is above the --mock server's "
                    + "longest reply of %d tokens; lower --osl, or benchmark a real server", osl,
                    MockServer.MAX_REPLY_TOKENS));
        }
    }

    /** From now on the mock's busy share counts: the load begins. */
    void loadBegins() {
        busyBefore = server == null ? null : server.busy();
    }

    /** After the load: a warning when the mock was too busy for the run to measure the client. */
    void warnIfSaturated(final RunLog console) {
        if (server == null) {
            return;
        }
        final String saturated = MockServer.saturationWarning(server.busyShare(busyBefore));
        if (saturated != null) {
            console.warning(saturated);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
