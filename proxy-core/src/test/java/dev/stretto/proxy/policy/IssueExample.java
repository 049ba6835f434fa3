package dev.stretto.proxy.policy;

/** The policy every reader must take as written, and mean what it says. */
public final class IssueExample {

    public static final String JSON = """
            {"rules": [
               {"id": "no-moves", "tools": ["move_file"], "action": "hide"},
               {"id": "confined", "tools": ["*"], "arguments": {"/path": {"outside": "/srv/data"}},
                "action": "deny", "reason": "only files under /srv/data"},
               {"id": "ask-writes", "annotations": {"readOnlyHint": false}, "action": "ask"}],
             "budgets": [{"id": "calls", "tools": ["*"], "per_session": 100, "action": "deny"}],
             "pinning": "deny",
             "server_requests": {"sampling/createMessage": "deny"}}
            """;

    public static final String YAML = """
            # The same policy, in YAML.
            rules:
              - id: no-moves
                tools: [move_file]
                action: hide
              - id: confined
                tools: ["*"]
                arguments:
                  /path: {outside: /srv/data}
                action: deny
                reason: only files under /srv/data
              - id: ask-writes
                annotations: {readOnlyHint: false}
                action: ask
            budgets:
              - {id: calls, tools: ["*"], per_session: 100, action: deny}
            pinning: deny
            server_requests:
              sampling/createMessage: deny
            """;

    private IssueExample() {
    }
}
