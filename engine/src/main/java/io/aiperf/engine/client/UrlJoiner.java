package io.aiperf.engine.client;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Base URL + endpoint path with AIPerf's overlap rule (AIPerf's endpoint and streaming docs): {@code host/v1} and
 * {@code host/v1/chat/completions} both give {@code /v1/chat/completions}; {@code host/proxy} gives
 * {@code /proxy/v1/chat/completions}. The base URL's query is kept.
 */
public final class UrlJoiner {
    private UrlJoiner() {
    }

    public static URI join(final String baseUrl, final String endpointPath) {
        final URI base = URI.create(baseUrl);
        final List<String> baseSegs = segments(base.getRawPath());
        final List<String> pathSegs = segments(endpointPath);
        int overlap = 0;
        for (int k = Math.min(baseSegs.size(), pathSegs.size()); k > 0; k--) {
            if (baseSegs.subList(baseSegs.size() - k, baseSegs.size()).equals(pathSegs.subList(0, k))) {
                overlap = k;
                break;
            }
        }
        final List<String> all = new ArrayList<>(baseSegs);
        all.addAll(pathSegs.subList(overlap, pathSegs.size()));
        final String path = all.isEmpty() ? "/" : "/" + String.join("/", all);
        final StringBuilder sb = new StringBuilder();
        sb.append(base.getScheme()).append("://").append(base.getRawAuthority()).append(path);
        if (base.getRawQuery() != null) {
            sb.append('?').append(base.getRawQuery());
        }
        return URI.create(sb.toString());
    }

    private static List<String> segments(final String path) {
        if (path == null || path.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    }
}
