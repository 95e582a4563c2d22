package io.aiperf.engine.dataset;

import java.beans.FeatureDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import jinjava.javax.el.ELContext;
import jinjava.javax.el.ELResolver;

/**
 * The Python string methods chat templates call ({@code content.strip()}, {@code role.upper()},
 * {@code text.split('</think>')}...), which Java's String lacks or defines otherwise (its split takes a regex). Only
 * method calls on strings are answered here; everything else is left to Jinjava's own resolver.
 */
final class PyStrings extends ELResolver {
    private static final Set<String> METHODS = Set.of("strip", "lstrip", "rstrip", "upper", "lower", "title",
            "capitalize", "startswith", "endswith", "split", "replace", "find", "count", "join");

    @Override
    public Object invoke(final ELContext context, final Object base, final Object method, final Class<?>[] types,
                         final Object[] params) {
        if (!(base instanceof String s) || method == null || !METHODS.contains(method.toString())) {
            return null;
        }
        final Object[] p = params == null ? new Object[0] : params;
        final Object result = call(s, method.toString(), p);
        context.setPropertyResolved(true);
        return result;
    }

    static Object call(final String s, final String method, final Object[] p) {
        return switch (method) {
            case "strip" -> rstrip(lstrip(s, arg(p, 0)), arg(p, 0));
            case "lstrip" -> lstrip(s, arg(p, 0));
            case "rstrip" -> rstrip(s, arg(p, 0));
            case "upper" -> s.toUpperCase(Locale.ROOT);
            case "lower" -> s.toLowerCase(Locale.ROOT);
            case "title" -> title(s);
            case "capitalize" -> s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT)
                    + s.substring(1).toLowerCase(Locale.ROOT);
            case "startswith" -> anyOf(p[0]).stream().anyMatch(s::startsWith);
            case "endswith" -> anyOf(p[0]).stream().anyMatch(s::endsWith);
            case "split" -> split(s, arg(p, 0), p.length > 1 ? ((Number) p[1]).intValue() : -1);
            case "replace" -> s.replace(String.valueOf(p[0]), String.valueOf(p[1]));
            case "find" -> (long) s.indexOf(String.valueOf(p[0]));
            case "count" -> count(s, String.valueOf(p[0]));
            case "join" -> join(s, p[0]);
            default -> throw new IllegalArgumentException(method);
        };
    }

    private static String arg(final Object[] p, final int i) {
        return p.length > i && p[i] != null ? String.valueOf(p[i]) : null;
    }

    /** A prefix or suffix, or Python's tuple of them (a list here). */
    private static List<String> anyOf(final Object o) {
        if (o instanceof Collection<?> c) {
            return c.stream().map(String::valueOf).toList();
        }
        return List.of(String.valueOf(o));
    }

    private static boolean strippable(final char c, final String chars) {
        return chars == null ? Character.isWhitespace(c) : chars.indexOf(c) >= 0;
    }

    private static String lstrip(final String s, final String chars) {
        int i = 0;
        while (i < s.length() && strippable(s.charAt(i), chars)) {
            i++;
        }
        return s.substring(i);
    }

    private static String rstrip(final String s, final String chars) {
        int i = s.length();
        while (i > 0 && strippable(s.charAt(i - 1), chars)) {
            i--;
        }
        return s.substring(0, i);
    }

    private static String title(final String s) {
        final StringBuilder out = new StringBuilder(s.length());
        boolean previousCased = false;
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            out.append(previousCased ? Character.toLowerCase(c) : Character.toUpperCase(c));
            previousCased = Character.isLetter(c);
        }
        return out.toString();
    }

    /** Python's split: on runs of whitespace without a separator, else on each separator, at most max times. */
    private static List<String> split(final String s, final String sep, final int max) {
        final List<String> out = new ArrayList<>();
        if (sep == null) {
            for (final String piece : s.strip().split("\\s+", max < 0 ? 0 : max + 1)) {
                if (!piece.isEmpty()) {
                    out.add(piece);
                }
            }
            return out;
        }
        if (sep.isEmpty()) {
            throw new IllegalArgumentException("empty separator");
        }
        int from = 0;
        int at;
        while ((max < 0 || out.size() < max) && (at = s.indexOf(sep, from)) >= 0) {
            out.add(s.substring(from, at));
            from = at + sep.length();
        }
        out.add(s.substring(from));
        return out;
    }

    private static long count(final String s, final String sub) {
        if (sub.isEmpty()) {
            return s.length() + 1L;
        }
        long n = 0;
        for (int at = s.indexOf(sub); at >= 0; at = s.indexOf(sub, at + sub.length())) {
            n++;
        }
        return n;
    }

    private static String join(final String sep, final Object items) {
        final List<String> parts = new ArrayList<>();
        if (items instanceof Iterable<?> it) {
            it.forEach(o -> parts.add(String.valueOf(o)));
        } else {
            parts.add(String.valueOf(items));
        }
        return String.join(sep, parts);
    }

    // Property access is not this resolver's: it resolves nothing, so Jinjava's resolver answers.

    @Override
    public Object getValue(final ELContext context, final Object base, final Object property) {
        return null;
    }

    @Override
    public Class<?> getType(final ELContext context, final Object base, final Object property) {
        return null;
    }

    @Override
    public void setValue(final ELContext context, final Object base, final Object property, final Object value) {
        // not resolved here
    }

    @Override
    public boolean isReadOnly(final ELContext context, final Object base, final Object property) {
        return true;
    }

    @Override
    public Iterator<FeatureDescriptor> getFeatureDescriptors(final ELContext context, final Object base) {
        return null;
    }

    @Override
    public Class<?> getCommonPropertyType(final ELContext context, final Object base) {
        return null;
    }
}
