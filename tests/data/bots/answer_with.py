"""A protocol bot (standard library only) that answers every request with its first legal
action, changed as told, to check how the arena reads answers:

    answer_with.py [--answer JSON] [--ready JSON] [--log FILE]

The keys of ``--answer`` replace those of the answer ``{"id": <the request's>, "action":
<its first legal text>}`` (a ``null`` removes the key), those of ``--ready`` the ``ready``
message's; ``--log`` appends every line received to FILE."""

import argparse
import json
import sys


def changed(message, changes):
    out = dict(message)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--answer", type=json.loads, default={})
    p.add_argument("--ready", type=json.loads, default={})
    p.add_argument("--log", default=None)
    args = p.parse_args()
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    for line in sys.stdin:
        if log is not None:
            log.write(line)
            log.flush()
        msg = json.loads(line)
        if msg["type"] == "hello":
            out = changed({"type": "ready", "protocol": 1, "name": "answer-with"}, args.ready)
        elif msg["type"] == "act":
            out = changed({"id": msg["id"], "action": msg["legal"][0]}, args.answer)
        elif msg["type"] == "quit":
            break
        else:
            continue
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
