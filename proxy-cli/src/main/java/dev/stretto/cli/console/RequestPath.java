package dev.stretto.cli.console;

import java.io.ByteArrayOutputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request's path and query, decoded strictly: each path segment on its own, so an encoded
 * slash ({@code %2F}) or NUL inside a segment, an empty, {@code .} or {@code ..} segment, a
 * bad percent escape or bytes that are not UTF-8 make the path unusable (null) instead of
 * turning into another path.
 *
 * @param segments the decoded segments, or null when the path is unusable
 * @param query    the decoded query parameters (the first of each name)
 */
record RequestPath(List<String> segments, Map<String, String> query) {

    static RequestPath of(String rawPath, String rawQuery) {
        return new RequestPath(segments(rawPath), query(rawQuery));
    }

    private static List<String> segments(String raw) {
        if (raw == null || !raw.startsWith("/")) {
            return null;
        }
        List<String> out = new ArrayList<>();
        if (raw.equals("/")) {
            return out;
        }
        String[] parts = raw.substring(1).split("/", -1);
        for (String p : parts) {
            String s = decode(p, false);
            if (s == null || s.isEmpty() || s.equals(".") || s.equals("..") || s.indexOf('/') >= 0
                    || s.indexOf('\\') >= 0 || s.indexOf('\0') >= 0) {
                return null;
            }
            out.add(s);
        }
        return out;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), true);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true);
            if (name != null && value != null && !name.isEmpty()) {
                out.putIfAbsent(name, value);
            }
        }
        return out;
    }

    /** Percent-decodes, as UTF-8; {@code +} is a space in a query. Null when malformed. */
    static String decode(String s, boolean plusIsSpace) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                bytes.write(' ');
            } else if (c < 0x80) {
                bytes.write(c);
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
