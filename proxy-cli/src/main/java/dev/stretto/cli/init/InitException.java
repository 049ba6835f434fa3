package dev.stretto.cli.init;

/**
 * Why {@code stretto init} did nothing: a file it will not change (not valid, read-only, one
 * that would lose its comments), an entry it cannot wrap. Exit status 1, one line on stderr.
 */
final class InitException extends Exception {

    InitException(String message) {
        super(message, null, false, false);
    }
}
