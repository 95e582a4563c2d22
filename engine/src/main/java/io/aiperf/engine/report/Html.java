package io.aiperf.engine.report;

/** HTML text escaping. Stateless. */
final class Html {
    /**
     * A data table's attributes: rules between rows only, room around each value. Presentation attributes, which a
     * Content-Security-Policy without {@code 'unsafe-inline'} still applies.
     */
    static final String TABLE = "border=\"1\" frame=\"hsides\" rules=\"rows\" cellpadding=\"5\" cellspacing=\"0\"";

    private Html() {
    }

    static String escape(final String s) {
        if (s == null) {
            return "";
        }
        final StringBuilder sb = new StringBuilder(s.length() + 16);
        for (final char c : s.toCharArray()) {
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
