package dev.stretto.proxy.share;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;

/**
 * Which part of a JSON document a value stands in, and so what is done with it: the
 * protocol's own fields ({@code jsonrpc}, {@code id}, {@code method}, a tool's name, a tool
 * list, {@code initialize}) and the fields of the proxy's side logs that name tools, sites and
 * numbers are {@link Keep kept}; tool arguments, tool results, errors, the conversation and
 * everything not known are {@link Data data}, where personal values are looked for. Each zone
 * gives the zone of a child; one walk of a document, token by token or node by node, meets
 * every value with the same zone.
 */
sealed interface Zone {

    /**
     * The zone of a child of the container in this zone.
     *
     * @param key    the child's key in an object, or null in an array
     * @param index  its index in an array
     * @param holder the container (the parsed tree), for the zones that look at a sibling
     */
    Zone child(String key, int index, JsonNode holder);

    /** Where a tool's data started: pointers of a rules file are relative to it. */
    enum Root {
        /** The arguments of a tool call. */
        ARGUMENTS,
        /** A tool's result: its structured content, or a text item's text (parsed when it is JSON). */
        RESULT,
        /** Anything else. */
        NONE
    }

    /** A path segment in a linked list, from the data's root. */
    record Segment(Segment parent, String name) {
    }

    Keep KEEP = new Keep();

    /** Left as it is, and everything below. */
    record Keep() implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            return this;
        }
    }

    /**
     * Data: values here are looked at.
     *
     * @param tool      the tool whose arguments or result this is, or null
     * @param root      which of its data
     * @param path      the path from the data's root, or null at the root
     * @param key       the key the value stands under (an array's element: the array's key)
     * @param parentKey the key of the object that holds {@code key}
     */
    record Data(String tool, Root root, Segment path, String key, String parentKey) implements Zone {

        /** Data of nothing in particular. */
        static Data plain(String key) {
            return new Data(null, Root.NONE, null, key, null);
        }

        @Override
        public Zone child(String key, int index, JsonNode holder) {
            if (key != null) {
                if (key.equals("type") || key.equals("mimeType")) {
                    return KEEP;
                }
                return new Data(tool, root, new Segment(path, key), key, this.key);
            }
            return new Data(tool, root, new Segment(path, Integer.toString(index)), this.key, parentKey);
        }
    }

    /** A request key of the oracle (64 hex digits): replaced by a keyed hash of it. */
    record OracleKey() implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            return KEEP;
        }
    }

    /** A flow decision's task id: the session id when none was given, then moved with the start time. */
    record TaskId() implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            return KEEP;
        }
    }

    /**
     * What a JSON-RPC message is, as far as the walk needs to know.
     *
     * @param method the method of a request or notification, or for a response that of the request it answers (or null)
     * @param tool   the tool a {@code tools/call} request names, or that its response answers (or null)
     * @param response whether it is a response
     */
    record Message(String method, String tool, boolean response) {
    }

    /** A line of a session log's {@code message}: one message, or a batch of them. */
    record Rpc(List<Message> messages) implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            if (key == null) {
                return index < messages.size() ? new RpcMessage(messages.get(index)) : Data.plain(null);
            }
            return new RpcMessage(messages.isEmpty() ? new Message(null, null, false) : messages.getFirst())
                    .child(key, index, holder);
        }
    }

    /** One JSON-RPC message object. */
    record RpcMessage(Message m) implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            if (key == null) {
                return Data.plain(null);
            }
            return switch (key) {
                case "jsonrpc", "id", "method" -> KEEP;
                case "params" -> m.response() ? Data.plain(key) : new Params(m);
                case "result" -> m.response() ? result(m) : Data.plain(key);
                case "error" -> new RpcError();
                default -> Data.plain(key);
            };
        }

        private static Zone result(Message m) {
            if (m.method() == null) {
                return new ToolResult(null);
            }
            return switch (m.method()) {
                case "initialize", "tools/list", "prompts/list", "ping", "logging/setLevel" -> KEEP;
                case "tools/call" -> new ToolResult(m.tool());
                default -> Data.plain("result");
            };
        }
    }

    /** A request's {@code params}. */
    record Params(Message m) implements Zone {
        private static final Set<String> KEPT = Set.of("name", "protocolVersion", "capabilities", "clientInfo",
                "requestId", "level", "cursor", "progressToken", "_meta");

        @Override
        public Zone child(String key, int index, JsonNode holder) {
            if (key == null) {
                return Data.plain(null);
            }
            if (key.equals("arguments") && "tools/call".equals(m.method())) {
                return new Data(m.tool(), Root.ARGUMENTS, null, key, null);
            }
            return KEPT.contains(key) ? KEEP : Data.plain(key);
        }
    }

    /** A tool call's {@code result} (or a result of an unknown request, read as one). */
    record ToolResult(String tool) implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            if (key == null) {
                return Data.plain(null);
            }
            return switch (key) {
                case "content" -> new Content(tool);
                case "structuredContent" -> new Data(tool, Root.RESULT, null, key, null);
                case "isError" -> KEEP;
                default -> Data.plain(key);
            };
        }
    }

    /** A result's content items. */
    record Content(String tool) implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            return key == null ? new ContentItem(tool) : Data.plain(key);
        }
    }

    /** One content item: its text is the tool's result, its type and media type stay. */
    record ContentItem(String tool) implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            if (key == null) {
                return Data.plain(null);
            }
            return switch (key) {
                case "type", "mimeType", "annotations" -> KEEP;
                case "text" -> new Data(tool, Root.RESULT, null, key, null);
                default -> Data.plain(key);
            };
        }
    }

    /** A JSON-RPC error: its code stays, its message and data are looked at. */
    record RpcError() implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            return "code".equals(key) ? KEEP : Data.plain(key);
        }
    }

    /** A line of the conversation ({@code --context}): its role stays. */
    record ContextLine() implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            return "role".equals(key) ? KEEP : Data.plain(key);
        }
    }

    /** A line of a flow log (a decision or a run): only its arguments, reason and task id can hold values. */
    record FlowLine() implements Zone {
        private static final Set<String> KEPT = Set.of("action", "address", "after", "binding", "ms", "oracle",
                "predicates", "prob", "probs", "run", "shadow", "site", "tool", "labels");

        @Override
        public Zone child(String key, int index, JsonNode holder) {
            if (key == null) {
                return Data.plain(null);
            }
            return switch (key) {
                case "arguments" -> new Data(text(holder, "tool"), Root.ARGUMENTS, null, key, null);
                case "policy" -> new FlowPolicy();
                case "key" -> new OracleKey();
                default -> KEPT.contains(key) ? KEEP : Data.plain(key);
            };
        }
    }

    /** A flow decision's exploration policy. */
    record FlowPolicy() implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            if ("options".equals(key)) {
                return new FlowOptions();
            }
            return "task_id".equals(key) ? new TaskId() : KEEP;
        }
    }

    /** The options a policy weighed. */
    record FlowOptions() implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            return key == null ? new FlowOption() : KEEP;
        }
    }

    /** One option: its arguments are the lookup's. */
    record FlowOption() implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            return "arguments".equals(key) ? new Data(text(holder, "tool"), Root.ARGUMENTS, null, key, null) : KEEP;
        }
    }

    /** A line of a confirmation judge's log. */
    record ConfirmLine() implements Zone {
        private static final Set<String> KEPT = Set.of("tool", "word_list", "enforced", "second_shadow", "p_yes",
                "p_second", "fails", "unknown", "ms");

        @Override
        public Zone child(String key, int index, JsonNode holder) {
            if (key == null) {
                return Data.plain(null);
            }
            return switch (key) {
                case "arguments" -> new Data(text(holder, "tool"), Root.ARGUMENTS, null, key, null);
                case "proposal_check" -> new Proposals(text(holder, "tool"));
                case "key", "second_key" -> new OracleKey();
                default -> KEPT.contains(key) ? KEEP : Data.plain(key);
            };
        }
    }

    /** The proposal check's flagged values. */
    record Proposals(String tool) implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            return key == null ? new Proposal(tool) : KEEP;
        }
    }

    /** One flagged value: the argument's name stays, its value is the argument's. */
    record Proposal(String tool) implements Zone {
        @Override
        public Zone child(String key, int index, JsonNode holder) {
            if ("value".equals(key)) {
                String argument = text(holder, "argument");
                return new Data(tool, Root.ARGUMENTS, argument == null ? null : new Segment(null, argument),
                        argument, null);
            }
            return KEEP;
        }
    }

    private static String text(JsonNode holder, String field) {
        JsonNode v = holder == null ? null : holder.get(field);
        return v != null && v.isTextual() ? v.textValue() : null;
    }
}
