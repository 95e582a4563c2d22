package io.aiperf.engine.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A forward-only reader of one JSON object in a byte array. It checks the whole grammar (RFC 8259, with the limits a
 * default Jackson parser keeps: 1,000 levels of nesting, numbers of up to 1,000 digits, names of up to 50,000 bytes,
 * strings of up to 20,000,000 characters) but makes a String only of the values asked for, and compares field names
 * on their bytes. Every answer and every streamed event goes through it, so it allocates nothing for what it skips.
 * Bytes after the object are not read. Not thread-safe; one per parse.
 * It is over 400 lines because the grammar's checks (strings and their escapes, UTF-8, numbers, literals, nesting)
 * share one position and one stack of containers: apart, each would hand them to the others at every byte.
 */
final class JsonCursor {
    private static final int MAX_DEPTH = 1_000;
    private static final int MAX_NUMBER_LENGTH = 1_000;
    private static final int MAX_NAME_BYTES = 50_000;
    private static final int MAX_STRING_LENGTH = 20_000_000;
    /** The bytes a string holds as they are: ASCII but the quote, the backslash and control characters. */
    private static final boolean[] PLAIN = new boolean[256];

    private static final java.lang.invoke.VarHandle WORDS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /**
     * Whether all eight bytes of {@code w} are {@link #PLAIN}: none has its high bit set, is below 0x20, or is a quote
     * or a backslash. (A byte is zero where {@code (x - ONES) & ~x & HIGHS} has its high bit; borrows may mark more
     * bytes than that, never fewer, and any mark sends the word to the byte-by-byte loop.)
     */
    private static boolean plainWord(final long w) {
        final long quote = w ^ 0x2222222222222222L;
        final long backslash = w ^ 0x5C5C5C5C5C5C5C5CL;
        final long marks = (w | ((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash)
                | (w - 0x2020202020202020L) & ~w) & HIGHS;
        return marks == 0;
    }

    static {
        for (int c = 0x20; c < 0x80; c++) {
            PLAIN[c] = c != '"' && c != '\\';
        }
    }

    private final byte[] b;
    private final int end;
    private int pos;
    private int depth;
    /** The last thing read was an opening bracket, so the next member or element comes without a comma. */
    private boolean opened;
    /** The current field name: its bytes between the quotes, or {@code escapedName} when it had escapes. */
    private int nameStart;
    private int nameLength;
    private String escapedName;

    JsonCursor(final byte[] buf, final int off, final int len) {
        this.b = buf;
        this.pos = off;
        this.end = off + len;
    }

    /** Reads the opening brace of the document's object; anything else is not a JSON object. */
    void beginDocument() throws IOException {
        // Byte order marks only at the very first byte (Jackson takes any number there, and none after a blank).
        while (pos + 2 < end && (b[pos] & 0xFF) == 0xEF && (b[pos + 1] & 0xFF) == 0xBB && (b[pos + 2] & 0xFF) == 0xBF) {
            pos += 3;
        }
        skipBlanks();
        if (peek() != '{') {
            throw malformed("not a JSON object");
        }
        open();
    }

    /** Moves to the next member of the current object and reads its name and colon; false at the object's end. */
    boolean nextField() throws IOException {
        if (!more('}')) {
            return false;
        }
        if (peek() != '"') {
            throw malformed("a field name was expected");
        }
        pos++;
        final int start = pos;
        final boolean plain = scanString();
        if (pos - 1 - start > MAX_NAME_BYTES) {
            throw malformed("field name longer than " + MAX_NAME_BYTES + " bytes");
        }
        if (plain) {
            escapedName = null;
            nameStart = start;
            nameLength = pos - 1 - start;
        } else {
            pairedSurrogates(start, pos - 1);
            escapedName = decode(start, pos - 1);
        }
        skipBlanks();
        if (peek() != ':') {
            throw malformed("a colon was expected after a field name");
        }
        pos++;
        return true;
    }

    /** Moves to the next element of the current array; false at the array's end. */
    boolean nextElement() throws IOException {
        return more(']');
    }

    /** Whether the current field's name is {@code name} (ASCII). */
    boolean nameIs(final String name) {
        if (escapedName != null) {
            return escapedName.equals(name);
        }
        if (nameLength != name.length()) {
            return false;
        }
        for (int i = 0; i < nameLength; i++) {
            if (b[nameStart + i] != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    boolean atObject() throws IOException {
        return peekValue() == '{';
    }

    boolean atArray() throws IOException {
        return peekValue() == '[';
    }

    boolean atString() throws IOException {
        return peekValue() == '"';
    }

    /** Whether the next value is a number without fraction or exponent. */
    boolean atInteger() throws IOException {
        final byte c = peekValue();
        if (c != '-' && (c < '0' || c > '9')) {
            return false;
        }
        int i = pos + 1;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        return i < end && b[i] != '.' && b[i] != 'e' && b[i] != 'E';
    }

    /** Enters the object or array at the cursor (after {@link #atObject()} or {@link #atArray()}). */
    void enter() throws IOException {
        peekValue();
        open();
    }

    /** Reads the string value at the cursor (after {@link #atString()}). */
    String string() throws IOException {
        peekValue();
        pos++;
        final int start = pos;
        final boolean plain = scanString();
        final String text = plain ? new String(b, start, pos - 1 - start, StandardCharsets.ISO_8859_1)
                : decode(start, pos - 1);
        if (text.length() > MAX_STRING_LENGTH) {
            throw malformed("string longer than " + MAX_STRING_LENGTH + " characters");
        }
        return text;
    }

    /** Reads the integer at the cursor (after {@link #atInteger()}); one outside an int's range is refused. */
    int intValue() throws IOException {
        peekValue();
        final int start = pos;
        skipNumber();
        long v = 0;
        final boolean negative = b[start] == '-';
        for (int i = negative ? start + 1 : start; i < pos; i++) {
            v = v * 10 + (b[i] - '0');
            if (v > (long) Integer.MAX_VALUE + 1) {
                break;
            }
        }
        v = negative ? -v : v;
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw malformed("numeric value out of the range of an int");
        }
        return (int) v;
    }

    /** Skips the value at the cursor, checking it. */
    void skipValue() throws IOException {
        final int base = depth;
        do {
            final byte c = peekValue();
            switch (c) {
                case '{', '[' -> open();
                case '"' -> {
                    pos++;
                    scanString();
                    opened = false;
                }
                case 't' -> literal("true");
                case 'f' -> literal("false");
                case 'n' -> literal("null");
                default -> {
                    if (c != '-' && (c < '0' || c > '9')) {
                        throw malformed("unexpected character '" + (char) (c & 0xFF) + "'");
                    }
                    skipNumber();
                }
            }
            // Closes every container that ends here, until the next value or the skipped value's end.
            while (depth > base) {
                final boolean inObject = containerIsObject();
                if (inObject ? nextField() : nextElement()) {
                    break;
                }
            }
        } while (depth > base);
    }

    /** Skips the rest of the current object or array, through its closing bracket. */
    void skipRest(final boolean object) throws IOException {
        while (object ? nextField() : nextElement()) {
            skipValue();
        }
    }

    // --- containers

    /**
     * Which kind of container is open at each depth: one bit per level up to 64 levels, an array of them beyond
     * (made only for a value that deep).
     */
    private long kinds;
    private byte[] deepKinds;

    private void open() throws IOException {
        final boolean object = b[pos] == '{';
        pos++;
        depth++;
        if (depth > MAX_DEPTH) {
            throw malformed("nesting deeper than " + MAX_DEPTH + " levels");
        }
        setKind(depth, object);
        opened = true;
    }

    private void setKind(final int level, final boolean object) {
        if (level <= 64) {
            final long bit = 1L << (level - 1);
            kinds = object ? kinds | bit : kinds & ~bit;
        } else {
            if (deepKinds == null) {
                deepKinds = new byte[MAX_DEPTH + 1];
            }
            deepKinds[level] = (byte) (object ? 1 : 0);
        }
    }

    private boolean containerIsObject() {
        return depth <= 64 ? (kinds & (1L << (depth - 1))) != 0 : deepKinds[depth] == 1;
    }

    /** Moves past the comma before the next member or element; false (and the container closed) at {@code close}. */
    private boolean more(final char close) throws IOException {
        skipBlanks();
        final byte c = peek();
        if (c == close) {
            pos++;
            depth--;
            opened = false;
            return false;
        }
        if (opened) {
            opened = false;
            return true;
        }
        if (c != ',') {
            throw malformed("a comma or '" + close + "' was expected");
        }
        pos++;
        skipBlanks();
        return true;
    }

    // --- scalars

    /** The first byte of the next value (blanks skipped), not consumed. */
    private byte peekValue() throws IOException {
        skipBlanks();
        return peek();
    }

    private byte peek() throws IOException {
        if (pos >= end) {
            throw new IOException("truncated JSON object");
        }
        return b[pos];
    }

    private void skipBlanks() {
        while (pos < end) {
            final byte c = b[pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            pos++;
        }
    }

    private void literal(final String word) throws IOException {
        for (int i = 0; i < word.length(); i++) {
            if (peek() != word.charAt(i)) {
                throw malformed("unrecognised token");
            }
            pos++;
        }
        endOfToken();
        opened = false;
    }

    /** A number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
    private void skipNumber() throws IOException {
        if (b[pos] == '-') {
            pos++;
        }
        final int start = pos;
        if (peek() == '0') {
            pos++;
            if (pos < end && b[pos] >= '0' && b[pos] <= '9') {
                throw malformed("leading zeroes are not allowed");
            }
        } else {
            digits();
        }
        int marks = 0; // the point, the exponent's letter and sign: not counted in the length, as Jackson counts it
        if (pos < end && b[pos] == '.') {
            pos++;
            marks++;
            digits();
        }
        if (pos < end && (b[pos] == 'e' || b[pos] == 'E')) {
            pos++;
            marks++;
            if (peek() == '+' || b[pos] == '-') {
                pos++;
                marks++;
            }
            digits();
        }
        if (pos - start - marks > MAX_NUMBER_LENGTH) {
            throw malformed("number longer than " + MAX_NUMBER_LENGTH + " digits");
        }
        endOfToken();
        opened = false;
    }

    private void digits() throws IOException {
        final byte c = peek();
        if (c < '0' || c > '9') {
            throw malformed("a digit was expected");
        }
        while (pos < end && b[pos] >= '0' && b[pos] <= '9') {
            pos++;
        }
    }

    /** A number or literal runs into the next structural byte or blank; at the input's end it is cut short. */
    private void endOfToken() throws IOException {
        final byte c = peek();
        if (c != ',' && c != '}' && c != ']' && c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            throw malformed("unexpected character '" + (char) (c & 0xFF) + "' after a value");
        }
    }

    /**
     * Moves past a string whose opening quote is behind the cursor, checking escapes, control characters and UTF-8;
     * true when it was ASCII without escapes (so its bytes are its text).
     */
    private boolean scanString() throws IOException {
        boolean plain = true;
        while (true) {
            while (pos + 8 <= end && plainWord((long) WORDS.get(b, pos))) {
                pos += 8; // the common case, eight bytes at a time
            }
            while (pos < end && PLAIN[b[pos] & 0xFF]) {
                pos++;
            }
            if (pos >= end) {
                throw new IOException("truncated JSON object");
            }
            final int c = b[pos] & 0xFF;
            if (c == '"') {
                pos++;
                return plain;
            }
            if (c == '\\') {
                plain = false;
                pos++;
                escape();
            } else if (c < 0x20) {
                throw malformed("unescaped control character in a string");
            } else if (c < 0x80) {
                pos++;
            } else {
                plain = false;
                utf8(c);
            }
        }
    }

    private void escape() throws IOException {
        switch (peek()) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> pos++;
            case 'u' -> {
                pos++;
                for (int i = 0; i < 4; i++) {
                    if (hex(peek()) < 0) {
                        throw malformed("bad \\u escape");
                    }
                    pos++;
                }
            }
            default -> throw malformed("bad escape");
        }
    }

    /**
     * A multi-byte UTF-8 sequence starting with {@code lead}, as Jackson checks it: the lead byte, the continuations,
     * and no encoded surrogate; overlong forms pass (and {@link #decode} reads them as Jackson does).
     */
    private void utf8(final int lead) throws IOException {
        final int continuations;
        if (lead >= 0xC0 && lead <= 0xDF) {
            continuations = 1;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            continuations = 2;
        } else if (lead >= 0xF0 && lead <= 0xF7) {
            continuations = 3;
        } else {
            throw malformed("invalid UTF-8 start byte");
        }
        pos++;
        for (int i = 0; i < continuations; i++) {
            if ((peek() & 0xC0) != 0x80) {
                throw malformed("invalid UTF-8 middle byte");
            }
            if (i == 0 && lead == 0xED && (b[pos] & 0xFF) >= 0xA0) {
                throw malformed("a UTF-16 surrogate encoded in UTF-8"); // U+D800 to U+DFFF, refused as Jackson does
            }
            pos++;
        }
    }

    /**
     * The text of a checked string with escapes or non-ASCII bytes, between {@code from} and the closing quote at
     * {@code to}. Multi-byte sequences are decoded by their bits, as Jackson decodes them: an overlong form gives the
     * character it spells, a four-byte one the two halves of its surrogate pair (beyond U+10FFFF, whatever the
     * arithmetic gives), where a JDK decoder would give replacement characters.
     */
    private String decode(final int from, final int to) {
        final StringBuilder sb = new StringBuilder(to - from);
        int i = from;
        while (i < to) {
            final int c = b[i] & 0xFF;
            if (c == '\\') {
                final byte e = b[i + 1];
                i += 2;
                switch (e) {
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        sb.append((char) (hex(b[i]) << 12 | hex(b[i + 1]) << 8 | hex(b[i + 2]) << 4 | hex(b[i + 3])));
                        i += 4;
                    }
                    default -> sb.append((char) e); // quote, backslash, slash
                }
            } else if (c < 0x80) {
                sb.append((char) c);
                i++;
            } else if (c < 0xE0) {
                sb.append((char) ((c & 0x1F) << 6 | (b[i + 1] & 0x3F)));
                i += 2;
            } else if (c < 0xF0) {
                sb.append((char) ((c & 0x0F) << 12 | (b[i + 1] & 0x3F) << 6 | (b[i + 2] & 0x3F)));
                i += 3;
            } else {
                final int point = ((c & 0x07) << 18 | (b[i + 1] & 0x3F) << 12 | (b[i + 2] & 0x3F) << 6
                        | (b[i + 3] & 0x3F)) - 0x10000;
                sb.append((char) (0xD800 | (point >> 10)));
                sb.append((char) (0xDC00 | (point & 0x3FF)));
                i += 4;
            }
        }
        return sb.toString();
    }

    /**
     * A field name's escaped surrogates ({@code \\uD800} to {@code \\uDFFF}) must pair up, an escaped high one
     * followed at once by an escaped low one, as Jackson requires of names (not of values, and not of surrogates
     * that come from UTF-8 bytes). The name's bytes are {@code [from, to)}, already checked.
     */
    private void pairedSurrogates(final int from, final int to) throws IOException {
        boolean high = false;
        for (int i = from; i < to; i++) {
            if (b[i] != '\\') {
                if (high) {
                    throw malformed("broken surrogate pair in a field name");
                }
                continue;
            }
            final char c = b[i + 1] == 'u'
                    ? (char) (hex(b[i + 2]) << 12 | hex(b[i + 3]) << 8 | hex(b[i + 4]) << 4 | hex(b[i + 5])) : 0;
            if (high != Character.isLowSurrogate(c)) {
                throw malformed(high ? "broken surrogate pair in a field name"
                        : "unexpected low surrogate in a field name");
            }
            high = !high && Character.isHighSurrogate(c);
            i += b[i + 1] == 'u' ? 5 : 1;
        }
        if (high) {
            throw malformed("broken surrogate pair in a field name");
        }
    }

    private static int hex(final byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private IOException malformed(final String why) {
        return new IOException("malformed JSON at byte " + pos + ": " + why);
    }
}
