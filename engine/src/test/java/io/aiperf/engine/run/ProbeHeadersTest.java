package io.aiperf.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.client.InferenceClient;
import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.client.RequestHeaders;
import io.aiperf.engine.config.NetworkConfig;
import io.aiperf.engine.net.RecordingServer;
import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.record.Environment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The server probes and the clock check send the user's headers as given, Host included, and read the answer. */
class ProbeHeadersTest {
    /** Answers every request with a model list and a Date one hour ahead. */
    private static RecordingServer scripted() throws IOException {
        return new RecordingServer(out -> {
            final byte[] body = "{\"data\":[{\"id\":\"served\",\"owned_by\":\"me\"}]}".getBytes(StandardCharsets.US_ASCII);
            final String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusHours(1));
            out.write(("HTTP/1.1 200 OK\r\nServer: scripted/1\r\nDate: " + date
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
        });
    }


    @Test
    void theModelProbeSendsTheHeadersAsGiven() throws Exception {
        try (RecordingServer server = scripted();
             InferenceClient client = new InferenceClient(2, 30, System::nanoTime, RunLimits.defaults(),
                     NetworkConfig.defaults())) {
            final Environment.ServerIdentity id = ServerProbe.identify(client, server.origin(), server.origin(),
                    RequestHeaders.of(new LinkedHashMap<>(Map.of("Host", "model-a.example.com",
                            "X-Tenant", "Team A", "Content-Type", "application/json"))));
            assertThat(id.models()).containsExactly("served (me)");
            assertThat(id.serverHeader()).isEqualTo("scripted/1");
            final String models = server.heads.stream().filter(h -> h.startsWith("GET /v1/models ")).findFirst()
                    .orElseThrow();
            assertThat(models).contains("\r\nHost: model-a.example.com\r\n").contains("\r\nX-Tenant: Team A\r\n")
                    .doesNotContain("Content-Type");
        }
    }

    @Test
    void theClockCheckSendsTheHeadersAsGivenAndReadsTheDate() throws Exception {
        try (RecordingServer server = scripted()) {
            final Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Host", "model-a.example.com");
            headers.put("Authorization", "Bearer k");
            final Double offset = ClockOffset.measure(new ProbeClient(NetworkConfig.defaults()),
                    java.net.URI.create(server.origin() + "/v1/models"), headers);
            assertThat(offset).isNotNull().isBetween(3_600_000 - 5_000.0, 3_600_000 + 5_000.0);
            assertThat(server.heads).hasSize(1);
            assertThat(server.heads.get(0)).contains("\r\nHost: model-a.example.com\r\n")
                    .contains("\r\nAuthorization: Bearer k\r\n");
        }
    }
}
