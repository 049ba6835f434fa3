package dev.stretto.proxy.share;

import java.util.Locale;

/**
 * What a personal value is, which decides the shape of its pseudonym. When one text is found
 * as two kinds, the kind listed first wins.
 */
public enum ValueKind {
    /** A credential: a token of a known form, or a value under a key that names a secret. */
    SECRET,
    /** An email address: {@code user-7f3a@example.invalid}. */
    EMAIL,
    /** A payment card number: a Luhn-valid number of the same length and first digit. */
    CARD,
    /** An IBAN: the same country and length, with valid check digits. */
    IBAN,
    /** A phone number: the same digits count and formatting, the first digit kept. */
    PHONE,
    /** An IP address: an IPv4 address in 10.0.0.0/8, an IPv6 one in fd00::/8. */
    IP,
    /** A date of birth: another date in the same format. */
    DATE,
    /** A zip or postal code: the same length, digits for digits. */
    ZIP,
    /** A street address: the house number and the street's name replaced, its type kept. */
    ADDRESS,
    /** A word of a person's name: a made-up word of the same length. */
    NAME,
    /** A segment of a file path under a home directory. */
    PATH,
    /** An identifier: the same length and alphabet, a type prefix ({@code user_}) kept. */
    ID,
    /** Free text a rule names: every word replaced by one of the same length. */
    TEXT;

    /** {@return the kind's name in rules files and reports: {@code email}, {@code id}, ...} */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The kind of a wire name.
     *
     * @param name a name as {@link #wireName()} gives it
     * @return the kind
     * @throws IllegalArgumentException when no kind has that name
     */
    public static ValueKind ofWireName(String name) {
        for (ValueKind k : values()) {
            if (k.wireName().equals(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("no kind of value is called \"" + name + "\" (the kinds: "
                + String.join(", ", java.util.Arrays.stream(values()).map(ValueKind::wireName).toList()) + ")");
    }
}
