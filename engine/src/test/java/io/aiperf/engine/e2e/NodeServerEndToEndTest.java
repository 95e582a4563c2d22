package io.aiperf.engine.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Nested;

/**
 * Against a second HTTP stack: a small OpenAI-compatible server on Node.js's own HTTP server
 * ({@code servers/openai-server.mjs}), once keeping connections alive as Node does, once ending each after its
 * answer with a half-close, as llama-server does. Runs when {@code node} is on the PATH; skipped with the reason
 * otherwise.
 */
class NodeServerEndToEndTest {
    /** The checks against one of the server's two modes. */
    abstract class NodeServerChecks extends RealServerEndToEndTest {
        /** Whether the server ends each connection after its answer with a half-close. */
        abstract boolean halfCloses();

        @Override
        RealServer startServer(final Path log) throws Exception {
            return start(log, halfCloses());
        }

        @Override
        RealServer startBrokenServer(final Path log) throws Exception {
            return start(log, halfCloses());
        }

        @Override
        String model() {
            return "node";
        }

        @Override
        String brokenModel() {
            return "broken";
        }

        @Override
        boolean endsConnectionsAfterStreams() {
            return halfCloses();
        }
    }

    @Nested
    class KeepingConnectionsAlive extends NodeServerChecks {
        @Override
        boolean halfCloses() {
            return false;
        }
    }

    @Nested
    class EndingEachConnectionAfterItsAnswer extends NodeServerChecks {
        @Override
        boolean halfCloses() {
            return true;
        }
    }

    private static RealServer start(final Path log, final boolean endAfterAnswer) throws Exception {
        final Path script = Path.of(NodeServerEndToEndTest.class.getResource("/servers/openai-server.mjs").toURI());
        final List<String> command = new ArrayList<>(List.of("node", script.toString(), "{port}"));
        if (endAfterAnswer) {
            command.add("--end-after-answer");
        }
        if (!onPath("node")) {
            System.err.println(NodeServerEndToEndTest.class.getSimpleName() + " skipped: node is not on the PATH");
        }
        Assumptions.assumeTrue(onPath("node"), "node is not on the PATH");
        return RealServer.start(command, "/health", log);
    }

    private static boolean onPath(final String program) {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (java.nio.file.Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
