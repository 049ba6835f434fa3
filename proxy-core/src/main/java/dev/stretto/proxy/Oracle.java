package dev.stretto.proxy;

/**
 * An open System-One oracle: who answers the questions of a served flow's arbiter and of the
 * confirmation judge ({@code --oracle}). Open one with {@link OracleSettings#open()}, give it to
 * any number of sessions ({@link ActiveSettings.Builder#oracle}) and to learning or promoting a
 * flow, and close it once they have ended: {@link OracleMode#JEV} holds an HTTP client. It is
 * safe to use from several sessions at once, and its answers go to the one cache.
 *
 * <p>Oracles are made by {@link OracleSettings#open()} only: a program does not implement this
 * interface (a session refuses an oracle it did not open).
 */
public interface Oracle extends AutoCloseable {

    /**
     * Who answers.
     *
     * @return the mode it was opened with
     */
    OracleMode mode();

    /**
     * The model id every question names; it is part of each question's cache key.
     *
     * @return such as {@code jev-latest}
     */
    String model();

    /** Releases what the oracle holds (the HTTP client of {@link OracleMode#JEV}). */
    @Override
    void close();
}
