package dev.stretto.cli.console.index;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the sessions page is asked to show: a domain, a mode, a range of start dates (UTC, both
 * ends included), words that the tool names and arguments must all contain, and a page. A
 * value that cannot be used is left out and noted, so the page still answers.
 *
 * @param domain the domain, or null for all
 * @param mode   the mode, or null for all
 * @param from   the first start date, or null
 * @param to     the last start date, or null
 * @param text   the search words as typed, {@code ""} for none
 * @param page   the page, from 1
 * @param notes  what was left out and why
 */
public record SessionFilter(String domain, Mode mode, LocalDate from, LocalDate to, String text, int page,
                            List<String> notes) {

    /** Rows on one page. */
    public static final int PAGE_SIZE = 50;

    /** No filter: the first page of everything. */
    public static final SessionFilter ALL = new SessionFilter(null, null, null, null, "", 1, List.of());

    /** Copies the notes. */
    public SessionFilter {
        text = text == null ? "" : text;
        notes = List.copyOf(notes);
        page = Math.max(1, page);
    }

    /**
     * The filter a query string asks for.
     *
     * @param query the decoded query parameters ({@code domain}, {@code mode}, {@code from},
     *              {@code to}, {@code q}, {@code page})
     * @return the filter
     */
    public static SessionFilter of(Map<String, String> query) {
        List<String> notes = new ArrayList<>();
        String domain = blankToNull(query.get("domain"));
        Mode mode = null;
        String m = blankToNull(query.get("mode"));
        if (m != null) {
            mode = Mode.ofWord(m);
            if (mode == null) {
                notes.add("there is no mode '" + m + "'; every mode is shown");
            }
        }
        LocalDate from = date(query.get("from"), "from", notes);
        LocalDate to = date(query.get("to"), "to", notes);
        if (from != null && to != null && to.isBefore(from)) {
            notes.add("the range ends (" + to + ") before it starts (" + from + "); the two are swapped");
            LocalDate t = from;
            from = to;
            to = t;
        }
        int page = 1;
        String p = blankToNull(query.get("page"));
        if (p != null) {
            try {
                page = Integer.parseInt(p);
            } catch (NumberFormatException e) {
                notes.add("'" + p + "' is not a page number; the first page is shown");
            }
        }
        return new SessionFilter(domain, mode, from, to, query.getOrDefault("q", "").strip(), page, notes);
    }

    private static LocalDate date(String value, String what, List<String> notes) {
        String v = blankToNull(value);
        if (v == null) {
            return null;
        }
        try {
            return LocalDate.parse(v);
        } catch (DateTimeParseException e) {
            notes.add("'" + v + "' is not a date (" + what + ", yyyy-mm-dd); it is left out");
            return null;
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    /** {@return whether anything narrows the list} */
    public boolean narrows() {
        return domain != null || mode != null || from != null || to != null || !text.isEmpty();
    }

    /**
     * Whether a session passes the filter.
     *
     * @param s the session
     * @return true when it is shown
     */
    public boolean matches(SessionSummary s) {
        if (domain != null && !domain.equals(s.domain())) {
            return false;
        }
        if (mode != null && !s.modes().contains(mode)) {
            return false;
        }
        if (from != null && s.startedUnixMs() < from.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli()) {
            return false;
        }
        if (to != null && s.startedUnixMs() >= to.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli()) {
            return false;
        }
        for (String word : words()) {
            if (!s.search().contains(word)) {
                return false;
            }
        }
        return true;
    }

    private List<String> words() {
        if (text.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }
}
