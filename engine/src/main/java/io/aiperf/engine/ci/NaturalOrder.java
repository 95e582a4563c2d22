package io.aiperf.engine.ci;

import java.util.Comparator;

/**
 * Labels in the order people read them: the numbers in them by value, so {@code concurrency_2} comes before
 * {@code concurrency_10} and {@code rate_2.5} before {@code rate_10}. Stateless.
 */
public final class NaturalOrder {
    public static final Comparator<String> COMPARATOR = NaturalOrder::compare;

    private NaturalOrder() {
    }

    public static int compare(final String a, final String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            final char ca = a.charAt(i);
            final char cb = b.charAt(j);
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                final int ei = end(a, i);
                final int ej = end(b, j);
                final int c = Double.compare(number(a.substring(i, ei)), number(b.substring(j, ej)));
                if (c != 0) {
                    return c;
                }
                i = ei;
                j = ej;
            } else {
                if (ca != cb) {
                    return Character.compare(ca, cb);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static int end(final String s, final int from) {
        int e = from;
        while (e < s.length() && (Character.isDigit(s.charAt(e)) || s.charAt(e) == '.')) {
            e++;
        }
        return e;
    }

    private static double number(final String s) {
        try {
            return Double.parseDouble(s.endsWith(".") ? s.substring(0, s.length() - 1) : s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
