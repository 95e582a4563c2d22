package io.aiperf.engine.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * Against llama.cpp's llama-server, the commonest local inference server. After a streamed answer it sends its FIN
 * at once and keeps its read side open, so a request written on that connection meanwhile is taken and never
 * answered: the client must send it again, and lose nothing. Runs when {@code AIPERF_LLAMA_SERVER_DIR} names a
 * folder holding {@code llama.cpp/build/bin/llama-server} and {@code models/}; skipped with the reason otherwise.
 */
class LlamaServerEndToEndTest extends RealServerEndToEndTest {
    static final String DIR_VARIABLE = "AIPERF_LLAMA_SERVER_DIR";

    @Override
    RealServer startServer(final Path log) throws Exception {
        return start("tiny-random-llama-64x2.gguf", log);
    }

    @Override
    RealServer startBrokenServer(final Path log) throws Exception {
        return start("broken-bytes-64x2.gguf", log);
    }

    @Override
    String model() {
        return "tiny";
    }

    @Override
    boolean endsConnectionsAfterStreams() {
        return true;
    }

    /** The server on a model of the built folder, or the test is skipped saying why. */
    private static RealServer start(final String model, final Path log) throws Exception {
        final String dir = System.getenv(DIR_VARIABLE);
        final Path bin = dir == null ? null : Path.of(dir, "llama.cpp", "build", "bin", "llama-server");
        final Path gguf = dir == null ? null : Path.of(dir, "models", model);
        final boolean here = bin != null && Files.isExecutable(bin) && Files.isRegularFile(gguf);
        final String reason = dir == null ? DIR_VARIABLE + " is not set (the folder llama-server was built into)"
                : "no llama-server or model " + model + " under " + dir;
        if (!here) {
            System.err.println(LlamaServerEndToEndTest.class.getSimpleName() + " skipped: " + reason);
        }
        Assumptions.assumeTrue(here, reason);
        return RealServer.start(List.of(bin.toString(), "-m", gguf.toString(), "--host", "127.0.0.1", "--port",
                "{port}", "-c", "8192", "-np", "4", "-t", "1", "--no-webui"), "/health", log);
    }
}
