package dev.stretto.proxy.oauth;

/** Text from a server, made fit for a message: printable ASCII only, and not too long. */
final class Texts {

    private Texts() {
    }

    static String shown(String s, int limit) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        s.codePoints().limit(limit).forEach(c -> out.append(c >= 0x20 && c < 0x7F ? Character.toString(c) : "?"));
        return s.length() > limit ? out + "..." : out.toString();
    }
}
