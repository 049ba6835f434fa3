package dev.stretto.cli.console.index;

import java.util.List;
import java.util.Map;

/**
 * One page of the sessions list.
 *
 * @param filter     what was asked
 * @param rows       the sessions on the page, newest first
 * @param matched    how many sessions pass the filter
 * @param total      how many sessions there are
 * @param page       the page shown (the last one when more were asked for)
 * @param pages      how many pages the matched sessions fill
 * @param domains    every domain and how many sessions it has, by name
 * @param unreadable how many logs cannot be read
 * @param problems   directories that could not be read
 */
public record Listing(SessionFilter filter, List<SessionSummary> rows, int matched, int total, int page, int pages,
                      Map<String, Integer> domains, int unreadable, List<String> problems) {

    /** Copies the lists. */
    public Listing {
        rows = List.copyOf(rows);
        domains = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(domains));
        problems = List.copyOf(problems);
    }

    /** {@return the 1-based number of the first row on the page} */
    public int firstRow() {
        return rows.isEmpty() ? 0 : (page - 1) * SessionFilter.PAGE_SIZE + 1;
    }
}
