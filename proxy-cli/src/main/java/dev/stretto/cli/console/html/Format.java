package dev.stretto.cli.console.html;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Times, durations and numbers as the console writes them: UTC times, short durations. */
public final class Format {

    private static final DateTimeFormatter DATE_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME_MS =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);

    private Format() {
    }

    /** {@return {@code 2026-09-28 02:04:01}, UTC} */
    static String dateTime(long unixMs) {
        return DATE_TIME.format(Instant.ofEpochMilli(unixMs));
    }

    /** {@return {@code 2026-09-28}, UTC} */
    static String date(long unixMs) {
        return DATE.format(Instant.ofEpochMilli(unixMs));
    }

    /** {@return {@code 02:04:01}, UTC} */
    static String time(long unixMs) {
        return TIME.format(Instant.ofEpochMilli(unixMs));
    }

    /** {@return {@code 02:04:01.312}, UTC} */
    static String timeMs(long unixMs) {
        return TIME_MS.format(Instant.ofEpochMilli(unixMs));
    }

    /** {@return a duration for people: {@code 34 ms} under a second, {@code 1.2 s} under a minute, then {@code 3 min 4 s}} */
    public static String duration(long ms) {
        if (ms < 0) {
            return "-";
        }
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long s = ms / 1000;
        if (s < 3600) {
            return s / 60 + " min " + s % 60 + " s";
        }
        return s / 3600 + " h " + s % 3600 / 60 + " min";
    }

    /** {@return a count with thousands separated: {@code 10,000}} */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** {@return {@code 1 call}, {@code 2 calls}} */
    static String plural(long n, String one, String many) {
        return count(n) + " " + (n == 1 ? one : many);
    }

    /** {@return a probability with two decimals} */
    static String probability(double p) {
        return String.format(Locale.ROOT, "%.2f", p);
    }

    /** {@return the text on one line, cut to {@code max} characters with an ellipsis} */
    static String oneLine(String s, int max) {
        String line = s.strip().replaceAll("\\s+", " ");
        if (line.codePointCount(0, line.length()) <= max) {
            return line;
        }
        return line.substring(0, line.offsetByCodePoints(0, max - 1)) + "\u2026";
    }
}
