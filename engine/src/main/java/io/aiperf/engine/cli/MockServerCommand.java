package io.aiperf.engine.cli;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.mock.Fault;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code aiperf mock-server}: the embedded OpenAI-compatible mock, for demos, tests and failure rehearsals. */
@Command(name = "mock-server", mixinStandardHelpOptions = true,
        description = "Serve a mock OpenAI-compatible API with a latency model, auth, admin routes and fault injection.",
        footerHeading = "%nExamples:%n", footer = {
                "  aiperf mock-server --port 8000",
                "  aiperf mock-server --ttft 100 --itl 20 --error-rate 5",
                "  aiperf mock-server --fault /v1/chat/completions=status:503:3 --access-log -"})
public final class MockServerCommand implements Callable<Integer> {
    @Option(names = "--host", paramLabel = "HOST", defaultValue = "127.0.0.1", description = "Bind address. Default: 127.0.0.1.")
    String host;
    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "8000", description = "Port (0 = any free port). Default: 8000.")
    int port;
    @Option(names = {"-t", "--ttft"}, paramLabel = "MS", defaultValue = "20", description = "Time to first token, ms. Default: 20.")
    double ttft;
    @Option(names = "--itl", paramLabel = "MS", defaultValue = "5", description = "Inter-token latency, ms. Default: 5.")
    double itl;
    @Option(names = {"-f", "--fast"}, description = "All latencies zero.")
    boolean fast;
    @Option(names = "--ttft-jitter-cv", paramLabel = "CV", defaultValue = "0", description = "Lognormal TTFT jitter (coefficient of variation).")
    double ttftJitter;
    @Option(names = "--itl-jitter-cv", paramLabel = "CV", defaultValue = "0", description = "Lognormal ITL jitter (coefficient of variation).")
    double itlJitter;
    @Option(names = "--error-rate", paramLabel = "PERCENT", defaultValue = "0", description = "Percent of inference requests answered with HTTP 500.")
    double errorRate;
    @Option(names = "--api-key", paramLabel = "KEY", description = "Require this key (raw or Bearer) on inference routes.")
    String apiKey;
    @Option(names = "--max-slots", paramLabel = "N", defaultValue = "0", description = "Serve at most N requests at "
            + "once; the others wait for a slot, first come, first served, so TTFT grows with the queue. "
            + "Default: 0 (unlimited).")
    int maxSlots;
    @Option(names = "--random-seed", paramLabel = "SEED", defaultValue = "0", description = "Seed for jitter and errors.")
    long seed;
    @Option(names = "--fault", paramLabel = "ROUTE=SPEC", description = "Inject a fault into the first N calls of a route (every call without N): "
            + "/route=status:CODE[:N], delay:MS[:N], stall:MS[:N], close[:N], drop:PERCENT[:N], garbage[:N], truncate[:N], "
            + "close-after[:N], half-close[:N], close-later:MS[:N], "
            + "bad-utf8[:N], huge-event:BYTES[:N], endless[:N], no-done[:N], error-event[:N], never[:N], echo-auth[:N]; "
            + "repeatable.")
    List<String> faults = new ArrayList<>();
    @Option(names = "--access-log", paramLabel = "FILE", description = "Log each request (time, method, path, "
            + "status; no headers or bodies) to this file, appended; - for stdout.")
    String accessLog;

    @Override
    public Integer call() throws Exception {
        final List<Fault> parsed = new ArrayList<>();
        try {
            faults.forEach(f -> parsed.add(Fault.parse(f)));
        } catch (IllegalArgumentException e) {
            System.err.println("error: --fault: " + e.getMessage());
            return ExitCode.USAGE;
        }
        final String invalid = !(errorRate >= 0 && errorRate <= 100) ? "--error-rate: must be a percentage between 0 and 100"
                : port < 0 || port > 65535 ? "--port: must be between 0 and 65535"
                : !(ttft >= 0) || !(itl >= 0) ? "--ttft and --itl: must not be negative"
                : maxSlots < 0 ? "--max-slots: must not be negative (0 = unlimited)"
                : !(ttftJitter >= 0) || !(itlJitter >= 0) ? "--ttft-jitter-cv and --itl-jitter-cv: must not be negative"
                : null;
        if (invalid != null) {
            System.err.println("error: " + invalid);
            return ExitCode.USAGE;
        }
        java.io.PrintStream log = null;
        if (accessLog != null) {
            try {
                log = accessLog.equals("-") ? System.out : new java.io.PrintStream(
                        new java.io.FileOutputStream(accessLog, true), true, java.nio.charset.StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                System.err.println("error: --access-log: cannot write " + accessLog + " (" + e.getMessage() + ")");
                return ExitCode.USAGE;
            }
        }
        final MockServerConfig config = new MockServerConfig(host, port, fast ? 0 : ttft, fast ? 0 : itl, ttftJitter,
                itlJitter, errorRate, apiKey, seed, parsed, maxSlots);
        final MockServer server;
        try {
            server = MockServer.start(config);
        } catch (java.net.BindException e) {
            System.err.println("error: cannot listen on " + host + ":" + port + " (" + e.getMessage()
                    + "); choose another --port, or 0 for any free port");
            return ExitCode.FAILED;
        }
        if (log != null) {
            server.accessLog(log);
        }
        System.out.println("aiperf mock server listening on " + server.url() + " (" + config.describe() + ")");
        System.out.flush();
        final CountDownLatch forever = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        forever.await();
        return ExitCode.OK;
    }
}
