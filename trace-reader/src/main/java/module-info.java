/**
 * trace-reader: session logs as a model ({@code dev.stretto.trace.log}), Episodes and their
 * turns ({@code episode}), tool manifests ({@code manifest}) and τ²-bench simulation runs
 * ({@code tau2}), and the wire's JSON spelling and JSON-RPC id keys ({@code json}). Plain Java
 * 25, no preview features; Jackson is its only dependency. On the class path the jar's
 * Automatic-Module-Name is the same, {@code dev.stretto.trace}.
 */
module dev.stretto.trace {
    requires transitive com.fasterxml.jackson.databind;

    exports dev.stretto.trace.episode;
    exports dev.stretto.trace.log;
    exports dev.stretto.trace.manifest;
    exports dev.stretto.trace.tau2;
    exports dev.stretto.trace.json;
}
