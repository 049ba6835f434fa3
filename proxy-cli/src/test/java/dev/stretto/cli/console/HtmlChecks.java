package dev.stretto.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a page's markup: every tag is one the console writes, every attribute one it uses,
 * none an event handler, exactly one script and one style, and the policy names their hashes.
 * A string from a log that broke out of its text or attribute would show up here as a tag or
 * attribute the console never writes.
 */
final class HtmlChecks {

    private static final Set<String> TAGS = Set.of("html", "head", "meta", "link", "title", "style", "body", "header",
            "div", "a", "span", "nav", "main", "section", "h1", "h2", "h3", "h4", "p", "dl", "dt", "dd", "ul", "ol",
            "li", "details", "summary", "pre", "button", "svg", "rect", "code", "strong", "small", "table", "thead",
            "tbody", "tr", "th", "td", "form", "label", "select", "option", "input", "script");
    private static final Set<String> ATTRIBUTES = Set.of("class", "id", "href", "title", "lang", "charset", "name",
            "content", "rel", "http-equiv", "type", "value", "selected", "placeholder", "autocomplete", "method",
            "action", "role", "aria-label", "aria-current", "aria-hidden", "data-href", "data-live", "data-open",
            "data-expand", "data-lines", "colspan", "scope", "viewBox", "preserveAspectRatio", "x", "y", "width",
            "height", "rx", "open");
    private static final Pattern TAG = Pattern.compile("<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>");
    private static final Pattern ATTRIBUTE = Pattern.compile("\\s+([a-zA-Z][a-zA-Z0-9-]*)=\"([^\"<>]*)\"");

    private HtmlChecks() {
    }

    /** Fails unless every tag and attribute of {@code html} is the console's own. */
    static void onlyOwnMarkup(String html) {
        String body = withoutInline(html);
        Matcher m = TAG.matcher(body);
        int scripts = 0;
        while (m.find()) {
            String tag = m.group(2);
            if (!TAGS.contains(tag)) {
                fail("a tag the console does not write: " + m.group() + " in\n" + around(body, m.start()));
            }
            if (tag.equals("script") && m.group(1).isEmpty()) {
                scripts++;
            }
            String attrs = m.group(3);
            Matcher a = ATTRIBUTE.matcher(attrs);
            int end = 0;
            while (a.find()) {
                if (a.start() != end) {
                    fail("stray text in a tag: " + m.group());
                }
                end = a.end();
                if (!ATTRIBUTES.contains(a.group(1)) || a.group(1).startsWith("on")) {
                    fail("an attribute the console does not write: " + a.group(1) + " in " + m.group());
                }
                if (a.group(1).equals("href") && a.group(2).toLowerCase().replaceAll("\\s", "").startsWith("javascript:")) {
                    fail("a script link: " + m.group());
                }
            }
            if (!attrs.substring(end).isBlank()) {
                fail("stray text in a tag: " + m.group());
            }
        }
        assertEquals(1, scripts, "exactly the console's own script");
        assertTrue(body.startsWith("<!DOCTYPE html>"), "a document");
        assertEquals(-1, body.indexOf("<!", 1), "no comment or markup declaration but the doctype");
    }

    /** The page with the inline style sheet and script taken out: their text is not markup. */
    private static String withoutInline(String html) {
        return html.replaceAll("(?s)<style>.*?</style>", "<style></style>")
                .replaceAll("(?s)<script>.*?</script>", "<script></script>");
    }

    /** The SHA-256 source expression of the content of the first {@code tag} element. */
    static String hashOf(String html, String tag) throws Exception {
        int start = html.indexOf("<" + tag + ">") + tag.length() + 2;
        int end = html.indexOf("</" + tag + ">", start);
        byte[] d = MessageDigest.getInstance("SHA-256").digest(html.substring(start, end).getBytes(StandardCharsets.UTF_8));
        return "'sha256-" + Base64.getEncoder().encodeToString(d) + "'";
    }

    private static String around(String s, int at) {
        return s.substring(Math.max(0, at - 200), Math.min(s.length(), at + 200));
    }
}
