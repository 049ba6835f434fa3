package dev.stretto.cli.tools;

import java.io.PrintStream;
import java.util.List;

/** Rows printed as aligned columns, two spaces apart, with no trailing white space. */
final class TextTable {

    private TextTable() {
    }

    /**
     * @param rows  the rows, the headings first; every row as long as {@code right}
     * @param right which columns are right-aligned (numbers)
     */
    static void print(PrintStream out, List<String[]> rows, boolean[] right) {
        int[] width = new int[right.length];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                if (i > 0) {
                    line.append("  ");
                }
                String pad = " ".repeat(width[i] - r[i].length());
                line.append(right[i] ? pad + r[i] : (i == r.length - 1 ? r[i] : r[i] + pad));
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
