package io.aiperf.engine.run;

import io.aiperf.engine.client.PreparedRequest;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.client.UrlJoiner;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.dataset.DatasetEntry;
import java.net.URI;
import java.util.List;
import org.apache.hc.core5.http.Header;

/**
 * Request {@code i} of a phase: dataset entry {@code i mod n} (sequential sampling), model and URL round
 * robin. Bodies are serialized once up front, so the send path allocates no JSON. Immutable; thread-safe.
 */
public final class RequestSource {
    private final List<DatasetEntry> entries;
    private final List<String> models;
    private final URI[] uris;
    private final byte[][] bodies; // [entry * models + model]
    private final Header[] headers;
    private final boolean streaming;

    public RequestSource(final BenchmarkConfig config, final List<DatasetEntry> entries, final String version) {
        this.entries = entries;
        this.models = config.models();
        final RequestFactory factory = new RequestFactory(config.endpoint(), version);
        this.uris = config.endpoint().urls().stream()
                .map(u -> UrlJoiner.join(u, config.endpoint().path())).toArray(URI[]::new);
        this.bodies = new byte[entries.size() * models.size()][];
        for (int e = 0; e < entries.size(); e++) {
            for (int m = 0; m < models.size(); m++) {
                final DatasetEntry entry = entries.get(e);
                bodies[e * models.size() + m] = RequestFactory.bytes(
                        factory.body(models.get(m), entry.prompt(), entry.outputTokens()));
            }
        }
        this.headers = factory.commonHeaders();
        this.streaming = config.endpoint().streaming();
    }

    public DatasetEntry entry(final int index) {
        return entries.get(index % entries.size());
    }

    public String model(final int index) {
        return models.get(index % models.size());
    }

    public PreparedRequest request(final int index) {
        final int e = index % entries.size();
        final int m = index % models.size();
        return new PreparedRequest(uris[index % uris.length], headers, bodies[e * models.size() + m], streaming);
    }

    /** The exact body of each entry with the primary model, for {@code inputs.json}. */
    public byte[] body(final int entryIndex) {
        return bodies[entryIndex * models.size()];
    }

    public List<DatasetEntry> entries() {
        return entries;
    }
}
