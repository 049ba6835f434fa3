package dev.stretto.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Optional;

/**
 * The tools a demo server offers and how each one answers. The echo and retail worlds keep no
 * state; tau2-retail keeps a database, a fresh copy of it for each session.
 */
sealed interface World permits EchoWorld, RetailWorld, Tau2RetailWorld {

    /** The world's name on the command line ({@code --world NAME}). */
    String name();

    /** Every tool of the world, in listing order, with its own hint. */
    List<Tool> tools();

    /** Answers a call of one of {@link #tools()}; {@code arguments} is an object. */
    ToolResult call(String tool, ObjectNode arguments);

    /** How long a call with these arguments waits before it answers, in milliseconds. */
    default long delayMillis(ObjectNode arguments) {
        return 0;
    }

    /** The world as one session sees it: a world without state is the same for every session. */
    default World session() {
        return this;
    }

    /** The world named on the command line, if there is one of that name that needs no database. */
    static Optional<World> named(String name) {
        return switch (name) {
            case "echo" -> Optional.of(new EchoWorld());
            case "retail" -> Optional.of(new RetailWorld());
            default -> Optional.empty();
        };
    }
}
