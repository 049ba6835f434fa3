package dev.stretto.proxy.redact;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import dev.stretto.trace.log.LineBytes;
import dev.stretto.trace.log.Payload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Keeps secrets the proxy was configured with (the values of {@code --upstream-header}, the
 * URL's credentials) out of the log when the server echoes them back: the host still gets
 * every byte, but the log holds {@code <redacted>} in their place.
 *
 * <p>A raw entry has each occurrence replaced. A message stays JSON: each string (key or
 * value) whose text holds a secret, however it is escaped on the wire, is written anew with
 * the secret replaced; everything else keeps its bytes. Values shorter than {@value #MIN_LENGTH}
 * characters are not looked for: they cannot be told from ordinary text, and no credential is
 * that short.
 */
public final class LogScrubber {

    /** Scrubs nothing, and takes no secrets later. */
    public static final LogScrubber NONE = new LogScrubber(List.of(), false);

    static final int MIN_LENGTH = 4;

    /** The secrets and their bytes, replaced whole when one is added. */
    private record Known(List<String> secrets, List<byte[]> secretBytes) {
    }

    private final boolean growable;
    private volatile Known known;

    /** A scrubber for these secret values (longest first, so that a longer one wins). */
    public LogScrubber(List<String> secrets) {
        this(secrets, true);
    }

    private LogScrubber(List<String> secrets, boolean growable) {
        this.growable = growable;
        this.known = known(secrets);
    }

    /**
     * Keeps {@code secret} out of every line scrubbed from now on: a token the proxy obtained
     * during the session (an OAuth sign-in), which the server may echo as any other secret.
     * Thread-safe.
     *
     * @param secret the secret; null ones and those too short to tell are left out
     */
    public synchronized void add(String secret) {
        if (!growable || secret == null || secret.length() < MIN_LENGTH || known.secrets().contains(secret)) {
            return;
        }
        List<String> all = new ArrayList<>(known.secrets());
        all.add(secret);
        known = known(all);
    }

    private static Known known(List<String> secrets) {
        List<String> kept = new ArrayList<>();
        for (String s : secrets) {
            if (s != null && s.length() >= MIN_LENGTH && !kept.contains(s)) {
                kept.add(s);
            }
        }
        // No lambda here: a session without secrets builds this on the start path.
        kept.sort(new Comparator<>() {
            @Override
            public int compare(String a, String b) {
                return Integer.compare(b.length(), a.length());
            }
        });
        List<byte[]> bytes = new ArrayList<>();
        for (String secret : kept) {
            bytes.add(secret.getBytes(StandardCharsets.UTF_8));
        }
        return new Known(List.copyOf(kept), List.copyOf(bytes));
    }

    /**
     * Whether scrubbing could change the entry of {@code line}: false when it holds no secret
     * for sure (most lines, and every line when there are no secrets), so that its entry may
     * be written from its bytes; true when {@link #scrub} must look.
     */
    public boolean mightChange(LineBytes line) {
        Known k = known;
        if (k.secrets().isEmpty()) {
            return false;
        }
        if (line.pieceCount() != 1) {
            return true;
        }
        byte[] b = line.piece(0);
        int n = line.pieceLength(0);
        // A secret may hide in an escape.
        if (indexOf(b, n, BACKSLASH) >= 0) {
            return true;
        }
        for (byte[] secret : k.secretBytes()) {
            if (indexOf(b, n, secret) >= 0) {
                return true;
            }
        }
        return false;
    }

    private static final byte[] BACKSLASH = {'\\'};

    private static int indexOf(byte[] b, int n, byte[] what) {
        outer:
        for (int i = 0; i + what.length <= n; i++) {
            for (int k = 0; k < what.length; k++) {
                if (b[i + k] != what[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** {@code payload} with every secret replaced by {@code <redacted>}, a message still JSON. */
    public Payload scrub(Payload payload) {
        List<String> secrets = known.secrets();
        if (secrets.isEmpty()) {
            return payload;
        }
        return switch (payload) {
            case Payload.Raw r -> holdsSecret(secrets, r.text()) ? new Payload.Raw(replace(secrets, r.text())) : r;
            // Without a backslash a string's text is its bytes: no secret can hide in escapes.
            case Payload.Message m -> holdsSecret(secrets, m.json()) || m.json().indexOf('\\') >= 0
                    ? new Payload.Message(scrubJson(secrets, m.json())) : m;
        };
    }

    private static boolean holdsSecret(List<String> secrets, String text) {
        for (String s : secrets) {
            if (text.contains(s)) {
                return true;
            }
        }
        return false;
    }

    private static String replace(List<String> secrets, String text) {
        String out = text;
        for (String s : secrets) {
            out = out.replace(s, CommandRedactor.REDACTED);
        }
        return out;
    }

    /** The message with every string and number token that holds a secret written anew. */
    private static String scrubJson(List<String> secrets, String json) {
        StringBuilder out = null;
        int copied = 0;
        try (JsonParser p = CanonicalJson.factory().createParser(json)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                boolean string = t == JsonToken.FIELD_NAME || t == JsonToken.VALUE_STRING;
                if (!string && !t.isNumeric()) {
                    continue;
                }
                String text = t == JsonToken.FIELD_NAME ? p.currentName() : p.getText();
                if (!holdsSecret(secrets, text)) {
                    continue;
                }
                int start = (int) p.currentTokenLocation().getCharOffset();
                int end = string ? endOfString(json, start) : start + text.length();
                if (out == null) {
                    out = new StringBuilder(json.length());
                }
                out.append(json, copied, start);
                JsonText.appendQuoted(out, replace(secrets, text));
                copied = end;
            }
        } catch (IOException e) {
            // Only messages that parsed reach here; should one not, no secret may pass as it is.
            return JsonText.quote(replace(secrets, json));
        }
        return out == null ? json : out.append(json, copied, json.length()).toString();
    }

    /** The index after the closing quote of the JSON string that opens at {@code quote}. */
    private static int endOfString(String json, int quote) {
        int i = quote + 1;
        while (json.charAt(i) != '"') {
            i += json.charAt(i) == '\\' ? 2 : 1;
        }
        return i + 1;
    }
}
