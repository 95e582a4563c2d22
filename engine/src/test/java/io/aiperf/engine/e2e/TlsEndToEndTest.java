package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** https targets: trusted through --ssl-ca-file for inference and control calls, refused otherwise, or insecure. */
class TlsEndToEndTest {
    @TempDir
    Path tmp;

    private Runs.Result profile(final String url, final String... tlsFlags) {
        final java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("profile", "-m", "m", "-u", url,
                "--streaming", "--request-count", "4", "--isl", "8", "--osl", "3", "--artifact-dir",
                tmp.resolve("run-" + tlsFlags.length + "-" + System.nanoTime()).toString()));
        args.addAll(java.util.List.of(tlsFlags));
        return Runs.aiperf(args.toArray(new String[0]));
    }

    @Test
    void aTrustedCaServesInferenceAndControlCalls() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast());
             TlsProxy tls = new TlsProxy(tmp, mock.port())) {
            final Runs.Result ok = profile(tls.url(), "--ssl-ca-file", tls.caFile().toString(), "--reset-kv-cache",
                    "--server-profiler");
            assertThat(ok.exitCode()).as(ok.err()).isZero();
            assertThat(mock.controlState().inferenceRequests()).isEqualTo(4);
            assertThat(mock.controlState().resetCount()).isEqualTo(1);
            assertThat(ok.out()).contains("reset_kv_cache " + tls.url() + "/reset_prefix_cache: ok");

            final Runs.Result untrusted = profile(tls.url());
            assertThat(untrusted.exitCode()).isEqualTo(1);
            assertThat(untrusted.err()).contains("no valid request").contains("SSLHandshakeException");

            final Runs.Result insecure = profile(tls.url(), "--ssl-insecure");
            assertThat(insecure.exitCode()).isZero();
            assertThat(insecure.err()).contains("warning: TLS certificate verification is off");
        }
        final Runs.Result missing = profile("https://127.0.0.1:1", "--ssl-ca-file", tmp.resolve("nope.pem").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("--ssl-ca-file").contains("cannot read CA certificates");
    }
}
