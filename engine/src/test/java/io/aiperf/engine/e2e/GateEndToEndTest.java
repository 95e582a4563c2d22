package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The gate over real runs against the mock: a TTFT regression fails, the same run against itself passes. */
class GateEndToEndTest {
    @TempDir
    Path tmp;

    private Path run(final double ttftMillis, final String name) throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(ttftMillis, 1))) {
            final Path dir = tmp.resolve(name);
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency", "4",
                    "--request-count", "40", "--warmup-request-count", "8", "--isl", "16", "--osl", "4",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isZero();
            return dir;
        }
    }

    @Test
    void ttftRegressionFailsAndSelfComparisonPasses() throws Exception {
        final Path rules = tmp.resolve("rules.yaml");
        // One trial of 40 requests per side: the rule is judged on the requests, and their p90 (the 4th slowest)
        // is a busy machine's pause as often as the server; the median is the server's.
        Files.writeString(rules, """
                rules:
                  - metric: time_to_first_token
                    stat: p50
                    max_increase_pct: 10
                    criticality: failure
                  - metric: output_token_throughput
                    stat: avg
                    max_decrease_pct: 50
                    criticality: unstable
                """);
        final Path baseline = run(20, "baseline");
        final Path candidate = run(40, "candidate");
        final Path out = tmp.resolve("gate");
        final Runs.Result failed = Runs.aiperf("gate", "--rules", rules.toString(), "--baseline", baseline.toString(),
                "--candidate", candidate.toString(), "--output-dir", out.toString());
        assertThat(failed.exitCode()).isEqualTo(1);
        final JsonNode result = Runs.json(out.resolve("gate_result.json"));
        assertThat(result.path("verdict").asText()).isEqualTo("failed");
        final JsonNode ttft = result.path("rules").get(0);
        assertThat(ttft.path("baseline").asDouble()).isGreaterThanOrEqualTo(20.0);
        assertThat(ttft.path("candidate").asDouble()).isGreaterThanOrEqualTo(40.0)
                .isGreaterThan(ttft.path("baseline").asDouble() * 1.1);
        assertThat(ttft.path("status").asText()).isEqualTo("failed");

        final Document junit = parseAndValidate(out.resolve("gate_junit.xml"));
        final Element suites = junit.getDocumentElement();
        assertThat(suites.getTagName()).isEqualTo("testsuites");
        assertThat(suites.getAttribute("tests")).isEqualTo("2");
        final NodeList failures = junit.getElementsByTagName("failure");
        assertThat(failures.getLength()).isGreaterThanOrEqualTo(1);
        final String message = ((Element) failures.item(0)).getAttribute("message");
        // The JUnit failure says what gate_result.json says of the rule, its figures included.
        assertThat(message).isEqualTo(ttft.path("message").asText()).contains("time_to_first_token p50")
                .containsPattern("\\d ms to \\d+(\\.\\d+)? ms \\(\\+\\d");
        assertThat(Files.readString(out.resolve("gate_summary.md"))).contains("FAILED").contains("time_to_first_token p50");

        final Runs.Result self = Runs.aiperf("gate", "--rules", rules.toString(), "--baseline", candidate.toString(),
                "--candidate", candidate.toString());
        assertThat(self.exitCode()).isZero();
        assertThat(Runs.json(candidate.resolve("gate_result.json")).path("verdict").asText()).isEqualTo("passed");
        parseAndValidate(candidate.resolve("gate_junit.xml"));
    }

    @Test
    void profileWithGateKeepsExportsWhenTheGateFails() throws Exception {
        final Path rules = tmp.resolve("strict.yaml");
        Files.writeString(rules, "rules:\n  - {metric: request_latency, stat: p50, max: 1, criticality: failure}\n");
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(10, 1))) {
            final Path dir = tmp.resolve("gated");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--request-count", "5",
                    "--isl", "8", "--osl", "3", "--artifact-dir", dir.toString(), "--gate", rules.toString());
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(dir.resolve("profile_export_aiperf.json")).exists();
            assertThat(dir.resolve("profile_export.jsonl")).exists();
            assertThat(dir.resolve("gate_junit.xml")).exists();
        }
    }

    @Test
    void badRulesAreAUsageErrorBeforeAnyTraffic() throws Exception {
        final Path rules = tmp.resolve("bad.yaml");
        Files.writeString(rules, "rules:\n  - {metric: time_to_frist_token, stat: p99, max: 1}\n"); // ttft is an alias
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "3",
                    "--artifact-dir", tmp.resolve("x").toString(), "--gate", rules.toString());
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("unknown metric 'time_to_frist_token'").contains("time_to_first_token");
            assertThat(mock.controlState().inferenceRequests()).isZero();
        }
    }

    private static Document parseAndValidate(final Path xml) throws Exception {
        final SchemaFactory sf = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        sf.newSchema(new StreamSource(GateEndToEndTest.class.getResourceAsStream("/junit.xsd")))
                .newValidator().validate(new StreamSource(xml.toFile()));
        final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(xml.toFile());
    }
}
