package dev.stretto.cli.console.html;

/**
 * Builds HTML in which everything that is not markup written here is escaped: text and
 * attribute values always go through {@link #escape(String)}, and tag and attribute names must
 * be plain words (letters, digits and hyphens; SVG has {@code viewBox}), so no string from a log can
 * open a tag, close an attribute or start a script. Not thread-safe.
 */
public final class Html {

    private final StringBuilder out;

    /** An empty builder. */
    public Html() {
        this(new StringBuilder(4096));
    }

    private Html(StringBuilder out) {
        this.out = out;
    }

    /**
     * Opens a tag.
     *
     * @param tag   the tag name
     * @param attrs attribute names and values, in pairs; a null value leaves the attribute out
     * @return this
     */
    public Html open(String tag, String... attrs) {
        out.append('<').append(name(tag));
        attributes(attrs);
        out.append('>');
        return this;
    }

    /**
     * Closes a tag.
     *
     * @param tag the tag name
     * @return this
     */
    public Html close(String tag) {
        out.append("</").append(name(tag)).append('>');
        return this;
    }

    /**
     * A tag holding text.
     *
     * @param tag   the tag name
     * @param text  its text, escaped
     * @param attrs attribute pairs, as for {@link #open(String, String...)}
     * @return this
     */
    public Html el(String tag, String text, String... attrs) {
        return open(tag, attrs).text(text).close(tag);
    }

    /**
     * A tag without content that has no closing tag ({@code br}, {@code input}, ...).
     *
     * @param tag   the tag name
     * @param attrs attribute pairs
     * @return this
     */
    public Html empty(String tag, String... attrs) {
        return open(tag, attrs);
    }

    /**
     * An element with no content, closed at once: what SVG shapes need in HTML.
     *
     * @param tag   the tag name
     * @param attrs attribute pairs
     * @return this
     */
    public Html leaf(String tag, String... attrs) {
        return open(tag, attrs).close(tag);
    }

    /**
     * Text, escaped.
     *
     * @param text the text; null writes nothing
     * @return this
     */
    public Html text(String text) {
        if (text != null) {
            escapeTo(out, text);
        }
        return this;
    }

    /**
     * Appends what another builder built.
     *
     * @param other markup built by an {@link Html}
     * @return this
     */
    public Html append(Html other) {
        out.append(other.out);
        return this;
    }

    /** Markup written here, never text from outside: an entity or a fixed snippet. */
    Html markup(String fixed) {
        out.append(fixed);
        return this;
    }

    /** {@return how many characters were built} */
    public int length() {
        return out.length();
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private void attributes(String[] attrs) {
        if (attrs.length % 2 != 0) {
            throw new IllegalArgumentException("attributes come in name and value pairs");
        }
        for (int i = 0; i < attrs.length; i += 2) {
            if (attrs[i + 1] == null) {
                continue;
            }
            out.append(' ').append(name(attrs[i])).append("=\"");
            escapeTo(out, attrs[i + 1]);
            out.append('"');
        }
    }

    private static String name(String n) {
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' && i > 0 || c >= '0' && c <= '9' && i > 0 || c == '-' && i > 0)) {
                throw new IllegalArgumentException("not a tag or attribute name: " + n);
            }
        }
        if (n.isEmpty()) {
            throw new IllegalArgumentException("an empty tag or attribute name");
        }
        return n;
    }

    /**
     * Escapes text for HTML content and quoted attribute values alike: {@code & < > " '},
     * and control characters other than tab and line breaks become U+FFFD (HTML has no place
     * for them; a NUL would end some readers' text).
     *
     * @param s the text
     * @return the escaped text
     */
    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        escapeTo(b, s);
        return b.toString();
    }

    private static void escapeTo(StringBuilder b, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                case '\t', '\n', '\r' -> b.append(c);
                default -> {
                    if (c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0 || c == '\ufeff'
                            || Character.isSurrogate(c) && !pairedAt(s, i)) {
                        b.append('\ufffd');
                    } else {
                        b.append(c);
                    }
                }
            }
        }
    }

    /** Whether the surrogate at {@code i} is half of a well-formed pair. */
    private static boolean pairedAt(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
