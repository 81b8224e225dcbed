#!/bin/sh
# A bot of the ddz arena protocol (docs/protocol.md) in awk, run by a POSIX shell: it
# answers every request with its first legal action. The arena's messages are compact JSON
# ("key":value, no spaces), so match() picks the fields out.
#
#     ddz arena "cmd:examples/bots/first_legal_awk.sh" greedy --deals 100
#
# Two buffers stand between awk and the arena (docs/protocol.md, "Flushing"):
# - its output to a pipe is block-buffered: fflush() after each line sends it;
# - mawk (Debian's and Ubuntu's awk) also reads a pipe in blocks, waiting for more input
#   than 'hello': -W interactive makes it read line by line (gawk and BSD awk need not).
case "$(awk -W version 2>&1 | head -n 1)" in
  mawk*) set -- -W interactive ;;
  *) set -- ;;
esac
exec awk "$@" '
/"type":"hello"/ {
    print "{\"type\":\"ready\",\"protocol\":1,\"name\":\"first-legal-awk\"}"
    fflush()
}
/"type":"act"/ {
    match($0, /"id":[0-9]+/)
    id = substr($0, RSTART + 5, RLENGTH - 5)
    match($0, /"legal":\["[^"]*"/)
    first = substr($0, RSTART + 10, RLENGTH - 11)
    printf "{\"id\":%s,\"action\":\"%s\"}\n", id, first
    fflush()
}
/"type":"quit"/ { exit }
'
