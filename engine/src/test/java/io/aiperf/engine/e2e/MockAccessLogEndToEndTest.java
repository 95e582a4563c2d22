package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mock's access log has a line per request, with its status, and never a header or a body. */
class MockAccessLogEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void everyRequestOfARunIsLoggedWithItsStatus() throws Exception {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withApiKey("sk-access-log-SECRET")
                .withFaults("/v1/chat/completions=status:503:1"))) {
            mock.accessLog(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--api-key",
                    "sk-access-log-SECRET", "--request-count", "4", "--concurrency", "1", "--osl", "2",
                    "--tokenizer", "builtin", "--artifact-dir", tmp.resolve("run").toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final long served = mock.controlState().inferenceRequests();
            mock.accessLog(null);
            final List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
            final List<String> chats = lines.stream().filter(l -> l.contains(" POST /v1/chat/completions ")).toList();
            assertThat(chats).hasSize(4); // the 4 requests of the run, the faulted one included
            assertThat(served).isEqualTo(3);
            assertThat(chats.get(0)).endsWith(" 503"); // the injected fault answered the first
            assertThat(chats.subList(1, chats.size())).allMatch(l -> l.endsWith(" 200"));
            assertThat(lines).anyMatch(l -> l.matches("\\S+ GET /v1/models 200"));
            assertThat(bytes.toString(StandardCharsets.UTF_8)).doesNotContain("SECRET");
        }
    }
}
