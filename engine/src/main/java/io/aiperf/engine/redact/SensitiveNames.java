package io.aiperf.engine.redact;

import java.util.regex.Pattern;

/**
 * Which header and URL query parameter names carry secrets, by pattern rather than by a list: any name holding
 * auth, token, key, secret, cookie, session, password, passwd, credential or signature (case-insensitive), so
 * {@code Cookie}, {@code X-Auth-Token}, {@code X-Other-Token}, {@code ?api_key=} and {@code ?sig=} are all found.
 */
public final class SensitiveNames {
    private static final Pattern SENSITIVE = Pattern.compile(
            "(?i).*(auth|token|key|secret|cookie|session|passw|credential|signature).*");
    /** Query parameter names that are secrets although they match nothing above (SAS and presigned URLs). */
    private static final Pattern SENSITIVE_QUERY = Pattern.compile("(?i)sig|code|x-amz-security-token");

    private SensitiveNames() {
    }

    public static boolean header(final String name) {
        return name != null && SENSITIVE.matcher(name.trim()).matches();
    }

    public static boolean queryParameter(final String name) {
        return name != null && (SENSITIVE.matcher(name).matches() || SENSITIVE_QUERY.matcher(name).matches());
    }
}
