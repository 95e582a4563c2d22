package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.time.Clock;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;

/**
 * An {@link Error} thrown while a response is read (an out-of-memory, a bug) fails that request only: the I/O
 * thread that read it lives on and serves the requests after it. Before, one such error killed the dispatch
 * thread and every later request hung until its timeout.
 */
class IoThreadSupervisionTest {
    @org.junit.jupiter.params.ParameterizedTest(name = "lean transport: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void anErrorInAResponseCallbackFailsOneRequestAndTheClientGoesOn(final boolean lean) throws Exception {
        final AtomicBoolean armed = new AtomicBoolean();
        // The clock is read first thing in every response callback, on the I/O thread: the place to fail.
        final Clock clock = () -> {
            final String thread = Thread.currentThread().getName();
            if ((thread.contains("dispatch") || thread.startsWith("http-loop")) && armed.compareAndSet(true, false)) {
                throw new OutOfMemoryError("simulated");
            }
            return System.nanoTime();
        };
        try (MockServer mock = MockServer.start(MockServerConfig.fast());
             InferenceClient client = new InferenceClient(1, 30, clock, RunLimits.defaults(),
                     io.aiperf.engine.config.NetworkConfig.defaults(), lean)) {
            final PreparedRequest request = new PreparedRequest(URI.create(mock.url() + "/v1/chat/completions"),
                    new Header[] {new BasicHeader("Content-Type", "application/json")},
                    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":3}"
                            .getBytes(StandardCharsets.UTF_8), false);
            final List<ResponseData> results = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                armed.set(i == 1);
                final CompletableFuture<ResponseData> done = new CompletableFuture<>();
                client.send(request, "r" + i, "c" + i, new InFlight(), done::complete);
                results.add(done.get(20, TimeUnit.SECONDS));
            }
            assertThat(results.get(1).error()).isNotNull();
            assertThat(results.get(1).error().message()).contains("internal error while");
            assertThat(results.get(0).error()).isNull();
            assertThat(results.get(2).error()).isNull();
            assertThat(results.get(3).error()).isNull();
        }
    }
}
