#!/bin/sh
# A bot of the ddz arena protocol (docs/protocol.md) in POSIX shell: it answers every
# request with the first legal action. The arena's messages are compact JSON
# ("key":value, no spaces), so sed can pick the fields out.
while IFS= read -r line; do
  case "$line" in
    *'"type":"hello"'*)
      echo '{"type":"ready","protocol":1,"name":"first-legal-sh"}' ;;
    *'"type":"act"'*)
      id=$(printf '%s\n' "$line" | sed 's/.*"type":"act","id":\([0-9]*\).*/\1/')
      first=$(printf '%s\n' "$line" | sed 's/.*"legal":\["\([^"]*\)".*/\1/')
      printf '{"id":%s,"action":"%s"}\n' "$id" "$first" ;;
    *'"type":"quit"'*)
      exit 0 ;;
  esac
done
