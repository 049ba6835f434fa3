package dev.stretto.cli;

import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.Policy;
import dev.stretto.proxy.PolicyException;
import dev.stretto.proxy.PolicyProblem;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code --policy FILE}, read when the session starts: a policy that cannot be read, or has a
 * problem, is a usage error (exit 2) naming the file and each problem's line, and the session
 * does not start; it never runs with less of a policy than the file says.
 */
final class PolicySetup {

    /** Why the policy cannot be used: one message line per problem. */
    static final class Failure extends Exception {
        private final transient List<String> lines;

        Failure(List<String> lines) {
            super(lines.getFirst(), null, false, false);
            this.lines = List.copyOf(lines);
        }

        List<String> lines() {
            return lines;
        }
    }

    private PolicySetup() {
    }

    /** The policy {@code given} names, a leading {@code ~} the home directory of {@code host}. */
    static Policy read(Path given, HostEnvironment host) throws Failure {
        Path file;
        try {
            file = host.resolve(given, "policy", "file");
        } catch (IllegalArgumentException e) {
            throw new Failure(List.of(ProxyArgs.POLICY + ": " + e.getMessage()));
        }
        try {
            return Policy.read(file);
        } catch (NoSuchFileException e) {
            throw new Failure(List.of(ProxyArgs.POLICY + ": " + file + ": no such file"));
        } catch (IOException e) {
            throw new Failure(List.of(ProxyArgs.POLICY + ": cannot read " + file + ": " + e.getMessage()));
        } catch (PolicyException e) {
            List<String> lines = new java.util.ArrayList<>();
            for (PolicyProblem p : e.problems()) {
                lines.add(ProxyArgs.POLICY + ": " + p);
            }
            lines.add("the session does not start with a policy that has problems; check it with"
                    + " 'stretto policy check " + given + "'");
            throw new Failure(lines);
        }
    }
}
