#!/bin/sh
# A tiny MCP server on stdio in POSIX sh, for tests that run hundreds of sessions at once,
# each with a child of its own: a JVM or a Node server per session would take gigabytes. It
# answers initialize (with the revision asked), ping, tools/list (one tool, echo) and
# tools/call of echo (its "text" back); notifications and answers it ignores. Numeric ids
# only, as the TypeScript SDK's client sends them. It ends when its stdin does.
while IFS= read -r line; do
  case $line in
    *'"id":'*) ;;
    *) continue ;;
  esac
  id=${line##*\"id\":}
  id=${id%%[,\}]*}
  case $line in
    *'"method":"initialize"'*)
      version=${line#*\"protocolVersion\":\"}
      version=${version%%\"*}
      printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"%s","capabilities":{"tools":{}},"serverInfo":{"name":"tiny-server","version":"1.0.0"}}}\n' "$id" "$version" ;;
    *'"method":"ping"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id" ;;
    *'"method":"tools/list"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"echo","description":"Answers with its text.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}}\n' "$id" ;;
    *'"method":"tools/call"'*)
      text=${line#*\"text\":\"}
      text=${text%%\"*}
      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"%s"}]}}\n' "$id" "$text" ;;
    *'"method":'*)
      printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id" ;;
  esac
done
