package dev.stretto.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.policy.PolicyReader;
import dev.stretto.proxy.policy.PolicyRules;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A policy for any server ({@code stretto-proxy --policy FILE}): rules that allow, log, hold for
 * a person's approval ({@code ask}), deny or hide tools, by tool name, by the server's hints
 * and by conditions on the arguments; budgets of calls; pinning of each tool as first listed;
 * and which of the server's own requests reach the host. Every rule that matches a call
 * applies and the strictest action wins; no rule matching is allow. The format is described
 * in the project's {@code docs/policy.md}.
 *
 * <p>A policy is checked whole when it is made: every key known, every value of its kind,
 * every glob, regex, JSON pointer and directory valid, every rule with an id and an action. A
 * policy with a problem is never made ({@link PolicyException} says every problem, with its
 * line and column), so a session never starts with a policy that does less than it says.
 * Immutable, and safe to give to any number of sessions at once ({@link
 * ActiveSettings.Builder#policy}): each session keeps its own budgets and pins.
 *
 * <pre>{@code
 * Policy policy = Policy.read(Path.of("/etc/agent/filesystem.policy.yaml"));
 * ProxyConfig config = ProxyConfig.builder(server)
 *         .active(ActiveSettings.builder().policy(policy).build())
 *         .build();
 * }</pre>
 */
public final class Policy {

    private final String source;
    private final JsonNode document;
    private final PolicyRules rules;

    private Policy(String source, JsonNode document, PolicyRules rules) {
        this.source = source;
        this.document = document;
        this.rules = rules;
    }

    /**
     * Reads a policy file: YAML when its name ends in {@code .yaml} or {@code .yml}, JSON when
     * it ends in {@code .json}, otherwise JSON when its text starts with an opening brace.
     *
     * @param file the file; its path as given names it in problems
     * @return the policy
     * @throws IOException     when the file cannot be read, or is not UTF-8 text
     * @throws PolicyException with every problem of the policy, each with its line and column
     */
    public static Policy read(Path file) throws IOException, PolicyException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new IOException(file + ": not UTF-8 text, so not a policy", e);
        }
        return parse(text, file.toString());
    }

    /**
     * Reads a policy's text.
     *
     * @param text   the policy, JSON or YAML
     * @param source how problems and messages name it; its extension picks the syntax as for
     *               {@link #read}
     * @return the policy
     * @throws PolicyException with every problem of the policy, each with its line and column
     */
    public static Policy parse(String text, String source) throws PolicyException {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        PolicyRules rules = PolicyReader.read(text, source);
        return new Policy(source, rules.document(), rules);
    }

    /**
     * A policy built in code, as the JSON document a file would hold ({@code {"rules": [...],
     * ...}}).
     *
     * @param document the policy; copied
     * @param source   how problems and messages name it (such as {@code "the harness's policy"});
     *                 problems name the JSON pointer of what is wrong, since there are no lines
     * @return the policy
     * @throws PolicyException with every problem of the policy
     */
    public static Policy of(JsonNode document, String source) throws PolicyException {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(source, "source");
        JsonNode copy = document.deepCopy();
        return new Policy(source, copy, PolicyReader.of(copy, source));
    }

    /**
     * How messages name the policy.
     *
     * @return the file's path as given, or the name given
     */
    public String source() {
        return source;
    }

    /**
     * The policy as a JSON document: a file's content (YAML too, as the same tree), or the
     * document given.
     *
     * @return a copy
     */
    public JsonNode document() {
        return document.deepCopy();
    }

    /**
     * Each rule's and budget's id with its action (a budget's: what a call past it gets), the
     * rules first, in the policy's order.
     *
     * @return the ids and actions, in order
     */
    public Map<String, PolicyAction> actions() {
        Map<String, PolicyAction> out = new LinkedHashMap<>();
        for (JsonNode r : document.path("rules")) {
            out.put(r.path("id").asText(), PolicyAction.named(r.path("action").asText()).orElseThrow());
        }
        for (JsonNode b : document.path("budgets")) {
            out.put(b.path("id").asText(), PolicyAction.named(b.path("action").asText()).orElseThrow());
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /**
     * Whether some rule or budget may hold a call until a person approves or denies it.
     *
     * @return true when the policy has an {@code ask}
     */
    public boolean asks() {
        return rules.asks();
    }

    /**
     * What a tool the server lists other than it first did gets.
     *
     * @return {@code off}, {@code log}, {@code deny} or {@code end}
     */
    public String pinning() {
        return rules.pinning().wireName();
    }

    /**
     * What the server's own requests get, for those the policy names; the others are allowed.
     *
     * @return the method of each named request, with {@link PolicyAction#ALLOW} or {@link PolicyAction#DENY}
     */
    public Map<String, PolicyAction> serverRequests() {
        return rules.serverRequests();
    }

    /**
     * How long a call held for a person's approval waits before it is denied.
     *
     * @return the timeout ({@code ask_timeout}; 60 s when the policy does not say)
     */
    public Duration askTimeout() {
        return rules.askTimeout();
    }

    /** The rules as a session applies them. */
    PolicyRules rules() {
        return rules;
    }

    @Override
    public String toString() {
        return "Policy[" + source + "]";
    }
}
