package io.aiperf.engine.summary;

/**
 * Whole numbers and whole nanoseconds as milliseconds, written as ASCII digits into a byte array: two digits per step
 * from a table, and in ints once the value fits. An epoch stamp has 19 digits, and dividing it by ten per digit was
 * a third of a records line's time.
 */
final class AsciiDigits {
    /** 10^0 to 10^18. */
    private static final long[] POWERS_OF_TEN = powersOfTen();
    /** The tens and the ones digit of 0-99. */
    private static final byte[] TENS = new byte[100];
    private static final byte[] ONES = new byte[100];

    static {
        for (int i = 0; i < 100; i++) {
            TENS[i] = (byte) ('0' + i / 10);
            ONES[i] = (byte) ('0' + i % 10);
        }
    }

    private AsciiDigits() {
    }

    /** {@code v} (not {@code Long.MIN_VALUE}) in decimal at {@code p}; returns the end. */
    static int digits(final long v, final byte[] b, int p) {
        long x = v;
        if (x < 0) {
            b[p++] = '-';
            x = -x;
        }
        final int end = p + length(x);
        int i = end;
        while (x > Integer.MAX_VALUE) {
            final long q = x / 100;
            final int pair = (int) (x - q * 100);
            b[--i] = ONES[pair];
            b[--i] = TENS[pair];
            x = q;
        }
        int y = (int) x;
        while (y >= 100) {
            final int q = y / 100;
            final int pair = y - q * 100;
            b[--i] = ONES[pair];
            b[--i] = TENS[pair];
            y = q;
        }
        if (y >= 10) {
            b[--i] = ONES[y];
            b[--i] = TENS[y];
        } else {
            b[--i] = (byte) ('0' + y);
        }
        return end;
    }

    /** The number of decimal digits of {@code x >= 0}. */
    private static int length(final long x) {
        int n = 1;
        while (n < POWERS_OF_TEN.length && x >= POWERS_OF_TEN[n]) {
            n++;
        }
        return n;
    }

    /** {@code ns / 1e6} as a decimal at {@code p} ({@code 0 <= ns < 1e15}), as Python prints the double; the end. */
    static int millis(final long ns, final byte[] b, int p) {
        p = digits(ns / 1_000_000L, b, p);
        b[p++] = '.';
        return fraction(ns % 1_000_000L, 6, b, p);
    }

    /**
     * {@code bytes / 1024} as a decimal at {@code p} ({@code 0 <= bytes < 2^26}), as Python prints the double (its
     * exact value: at most 15 significant digits); the end. A 1/1024 is 0.0009765625, so the fraction is the low ten
     * bits times 9765625, in ten decimal places.
     */
    static int kibibytes(final long bytes, final byte[] b, int p) {
        p = digits(bytes >> 10, b, p);
        b[p++] = '.';
        return fraction((bytes & 1023) * 9_765_625L, 10, b, p);
    }

    /**
     * The digits after the point of {@code frac / 10^places} ({@code 0 <= frac < 10^places}) at {@code p}, without
     * trailing zeros, and "0" for none, as Python prints a double's fraction; the end.
     */
    private static int fraction(long frac, final int places, final byte[] b, final int p) {
        if (frac == 0) {
            b[p] = '0';
            return p + 1;
        }
        int digits = places;
        while (frac % 10 == 0) {
            frac /= 10;
            digits--;
        }
        for (int i = digits - 1; i >= 0; i--) {
            b[p + i] = (byte) ('0' + frac % 10);
            frac /= 10;
        }
        return p + digits;
    }

    private static long[] powersOfTen() {
        final long[] p = new long[19];
        p[0] = 1;
        for (int i = 1; i < p.length; i++) {
            p[i] = p[i - 1] * 10;
        }
        return p;
    }
}
