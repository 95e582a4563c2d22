package io.aiperf.jenkins;

/** Forms send blanks for unset fields; they are stored as null (as Jenkins' Util.fixEmptyAndTrim does). */
final class Blanks {
    private Blanks() {
    }

    static String toNull(final String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
