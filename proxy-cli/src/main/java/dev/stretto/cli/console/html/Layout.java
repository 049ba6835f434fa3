package dev.stretto.cli.console.html;

/**
 * The frame of every page: head (the inline style sheet, the policy for a saved page, no
 * favicon request), the bar with the console's pages, the content, the inline script.
 */
public final class Layout {

    /** Which page of the console a page is, for the bar. */
    public enum Section {
        /** The sessions list, and a session. */
        SESSIONS,
        /** The flows. */
        FLOWS,
        /** The guards. */
        GUARDS
    }

    private Layout() {
    }

    /**
     * A page the console serves.
     *
     * @param title   the title, after "stretto console"
     * @param section the page's place in the bar
     * @param main    the content
     * @return the document
     */
    public static String served(String title, Section section, Html main) {
        Html page = head(title, null);
        page.open("body");
        page.open("header", "class", "bar").open("div", "class", "bar-in");
        page.open("a", "class", "brand", "href", "/").markup(LOGO).el("span", "stretto").el("span", "console", "class",
                "brand-sub").close("a");
        page.open("nav");
        navLink(page, "/", "Sessions", section == Section.SESSIONS);
        navLink(page, "/flows", "Flows", section == Section.FLOWS);
        navLink(page, "/guards", "Guards", section == Section.GUARDS);
        page.close("nav").close("div").close("header");
        page.append(main);
        return tail(page);
    }

    /**
     * A page with no links to the others: what a request that may not see them gets.
     *
     * @param title the title
     * @param main  the content
     * @return the document
     */
    public static String bare(String title, Html main) {
        Html page = head(title, null);
        page.open("body");
        page.open("header", "class", "bar").open("div", "class", "bar-in");
        page.open("span", "class", "brand").markup(LOGO).el("span", "stretto").el("span", "console", "class",
                "brand-sub").close("span");
        page.close("div").close("header");
        page.append(main);
        return tail(page);
    }

    /**
     * A page that says one thing: an error.
     *
     * @param title  the heading
     * @param text   what happened and what to do
     * @param linked whether the page may link to the others
     * @return the document
     */
    public static String message(String title, String text, boolean linked) {
        Html m = new Html();
        m.open("main").open("div", "class", "empty").el("h2", title).el("p", text);
        if (linked) {
            m.open("p").el("a", "All sessions", "href", "/").close("p");
        }
        m.close("div").close("main");
        return linked ? served(title, Section.SESSIONS, m) : bare(title, m);
    }

    /**
     * A saved page: one file with everything in it, that reads nothing from anywhere.
     *
     * @param title the title
     * @param main  the content
     * @return the document
     */
    public static String file(String title, Html main) {
        Html page = head(title, Assets.filePolicy());
        page.open("body", "class", "file");
        page.open("header", "class", "bar").open("div", "class", "bar-in");
        page.open("span", "class", "brand").markup(LOGO).el("span", "stretto").el("span", "session", "class",
                "brand-sub").close("span");
        page.el("span", "saved with stretto show --html", "class", "bar-note");
        page.close("div").close("header");
        page.append(main);
        return tail(page);
    }

    private static Html head(String title, String policy) {
        Html page = new Html();
        page.markup("<!DOCTYPE html>\n");
        page.open("html", "lang", "en").open("head");
        page.empty("meta", "charset", "utf-8");
        if (policy != null) {
            page.empty("meta", "http-equiv", "Content-Security-Policy", "content", policy);
        }
        page.empty("meta", "name", "viewport", "content", "width=device-width, initial-scale=1");
        page.empty("meta", "name", "referrer", "content", "no-referrer");
        page.empty("link", "rel", "icon", "href", "data:,");
        page.el("title", title + " \u00b7 stretto console");
        page.open("style").markup(Assets.CSS).close("style");
        page.close("head");
        return page;
    }

    private static String tail(Html page) {
        page.open("script").markup(Assets.JS).close("script");
        page.close("body").close("html");
        return page.toString();
    }

    private static void navLink(Html page, String href, String text, boolean current) {
        page.el("a", text, "href", href, "class", current ? "current" : null, "aria-current", current ? "page" : null);
    }

    /** The mark beside the name: three staggered entries, as a stretto's voices. */
    private static final String LOGO = "<svg class=\"logo\" viewBox=\"0 0 24 24\" aria-hidden=\"true\">"
            + "<rect x=\"2\" y=\"4\" width=\"12\" height=\"4\" rx=\"2\"></rect>"
            + "<rect x=\"6\" y=\"10\" width=\"12\" height=\"4\" rx=\"2\"></rect>"
            + "<rect x=\"10\" y=\"16\" width=\"12\" height=\"4\" rx=\"2\"></rect></svg>";
}
